package dev.pointsman.picker.app;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scrape.ScrapeListener;
import dev.pointsman.picker.scrape.ScrapeReport;

/** Passes scrape results on, then runs {@code after} (flow control looks for room). */
final class ScrapeTap implements ScrapeListener {
  private final ScrapeListener target;
  private volatile Runnable after = () -> {};

  ScrapeTap(ScrapeListener target) {
    this.target = target;
  }

  void after(Runnable after) {
    this.after = after;
  }

  @Override
  public void onSuccess(String address, EndpointMetrics metrics) {
    target.onSuccess(address, metrics);
    after.run();
  }

  @Override
  public void onSuccess(String address, EndpointMetrics metrics, ScrapeReport report) {
    target.onSuccess(address, metrics, report);
    after.run();
  }

  @Override
  public void onFailure(String address, String reason) {
    target.onFailure(address, reason);
    after.run();
  }
}
