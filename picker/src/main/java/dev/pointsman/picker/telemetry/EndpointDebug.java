package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scrape.ScrapeReport;
import dev.pointsman.picker.scrape.Signal;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /debug/endpoints}: every endpoint of every pool as the picker sees it now — available or
 * not and why (its scrapes failing, and why), the signals its metrics lack, whether its model
 * listing has lineage, and the last scraped load.
 */
public final class EndpointDebug {
  private final Datastore store;

  public EndpointDebug(Datastore store) {
    this.store = store;
  }

  /** Pools in name order, endpoints in pool order. */
  public List<View> endpoints() {
    List<View> out = new ArrayList<>();
    for (String pool : store.pools()) {
      for (EndpointState e : store.snapshot(pool).endpoints()) {
        ScrapeReport r = store.report(e.address());
        Datastore.Failing failing = store.failing(e.address());
        EndpointMetrics m = e.metrics();
        out.add(
            new View(
                pool,
                e.address(),
                e.available(),
                failing == null ? null : failing.reason(),
                failing == null ? 0 : failing.inARow(),
                r.notServing(),
                r.missing().stream().map(Signal::label).sorted().toList(),
                r.listing(),
                m.waitingRequests(),
                m.runningRequests(),
                Double.isNaN(m.kvCacheUsage()) ? null : m.kvCacheUsage(),
                m.kvCapacityTokens() < 0 ? null : m.kvCapacityTokens()));
      }
    }
    return out;
  }

  /**
   * One endpoint.
   *
   * @param pool its pool
   * @param address {@code ip:port}
   * @param available whether it can be picked
   * @param scrapeFailure why its scrapes fail since the last success ({@code tls}, {@code connect},
   *     {@code timeout}, {@code http_<status>}...), or null when the last one succeeded
   * @param failuresInARow scrapes failed since the last success
   * @param notServing why its engine, answering, serves nothing ({@code sleeping}), or null
   * @param missingSignals signals its metrics lack
   * @param listing its model listing: {@code ok}, {@code no_lineage}, {@code unknown}
   * @param waitingRequests as last scraped
   * @param runningRequests as last scraped
   * @param kvCacheUsage 0–1, or null when unknown
   * @param kvCapacityTokens or null when unknown
   */
  public record View(
      String pool,
      String address,
      boolean available,
      String scrapeFailure,
      int failuresInARow,
      String notServing,
      List<String> missingSignals,
      String listing,
      int waitingRequests,
      int runningRequests,
      Double kvCacheUsage,
      Long kvCapacityTokens) {}
}
