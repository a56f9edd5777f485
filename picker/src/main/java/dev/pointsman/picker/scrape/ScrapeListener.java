package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;

/**
 * Receives scrape results. Called from HTTP client or scheduler threads, never concurrently for the
 * same address, and never for an address after it left the targets.
 */
public interface ScrapeListener {

  void onSuccess(String address, EndpointMetrics metrics);

  /**
   * A successful scrape with its report. By default an endpoint that does not serve ({@link
   * ScrapeReport#notServing()}) is a failure with that reason, and the rest of the report is
   * dropped.
   */
  default void onSuccess(String address, EndpointMetrics metrics, ScrapeReport report) {
    if (report.notServing() != null) {
      onFailure(address, report.notServing());
    } else {
      onSuccess(address, metrics);
    }
  }

  /**
   * A failed scrape.
   *
   * @param reason one of {@code timeout}, {@code connect}, {@code io}, {@code parse}, {@code
   *     not_prometheus_text}, {@code too_large} (a body over {@link
   *     ScrapeHttp#DEFAULT_MAX_BODY_BYTES}) or {@code http_<status>}
   */
  void onFailure(String address, String reason);
}
