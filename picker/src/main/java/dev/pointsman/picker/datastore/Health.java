package dev.pointsman.picker.datastore;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scrape.ScrapeReport;

/**
 * Immutable scrape history of one endpoint.
 *
 * @param metrics last good metrics, or {@link EndpointMetrics#UNKNOWN}
 * @param succeeded whether any scrape succeeded
 * @param lastSuccessNanos when the last success was applied (datastore clock)
 * @param consecutiveFailures failures since the last success
 * @param attempted whether any scrape result (success or failure) arrived
 * @param report what the last good scrape said besides its metrics; an endpoint that does not serve
 *     ({@link ScrapeReport#notServing()}) is unavailable at once
 * @param failure why the scrapes since the last success failed (the latest reason), or null
 */
record Health(
    EndpointMetrics metrics,
    boolean succeeded,
    long lastSuccessNanos,
    int consecutiveFailures,
    boolean attempted,
    ScrapeReport report,
    String failure) {

  static final Health NEW =
      new Health(EndpointMetrics.UNKNOWN, false, 0, 0, false, ScrapeReport.NONE, null);

  Health success(EndpointMetrics newMetrics, long now, ScrapeReport newReport) {
    return new Health(newMetrics, true, now, 0, true, newReport, null);
  }

  Health failure(String reason) {
    int failures =
        consecutiveFailures == Integer.MAX_VALUE ? consecutiveFailures : consecutiveFailures + 1;
    return new Health(metrics, succeeded, lastSuccessNanos, failures, true, report, reason);
  }

  boolean available(long now, Thresholds t) {
    return succeeded
        && report.notServing() == null
        && consecutiveFailures < t.failureThreshold()
        && now - lastSuccessNanos <= t.unavailableAfterNanos();
  }

  boolean stale(long now, Thresholds t) {
    return available(now, t) && now - lastSuccessNanos > t.staleAfterNanos();
  }

  /**
   * How long from {@code now} the availability and staleness seen at {@code now} stay true without
   * a new scrape result; {@link Long#MAX_VALUE} when only a new result can change them.
   */
  long unchangedFor(long now, Thresholds t) {
    if (!available(now, t)) {
      return Long.MAX_VALUE;
    }
    long age = now - lastSuccessNanos;
    long next = age <= t.staleAfterNanos() ? t.staleAfterNanos() : t.unavailableAfterNanos();
    return next - age + 1;
  }

  /** The config in nanoseconds. */
  record Thresholds(int failureThreshold, long staleAfterNanos, long unavailableAfterNanos) {
    static Thresholds of(DatastoreConfig c) {
      return new Thresholds(
          c.failureThreshold(), c.staleAfter().toNanos(), c.unavailableAfter().toNanos());
    }
  }
}
