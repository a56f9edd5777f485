package dev.pointsman.picker.scheduling;

import java.util.Set;

/**
 * What the last successful scrape of an endpoint's {@code /metrics} said, in engine-neutral terms.
 * Unknown values are {@code -1} (counts, capacities) or {@code NaN} (fractions).
 *
 * @param waitingRequests requests queued in the engine
 * @param runningRequests requests in the running batch
 * @param kvCacheUsage fraction of KV-cache blocks in use, 0–1
 * @param kvCapacityTokens KV-cache capacity in tokens (block size × blocks), or -1
 * @param runningAdapters LoRA adapters with running requests
 * @param waitingAdapters LoRA adapters with waiting requests
 * @param maxLoras LoRA adapter GPU slots, or -1 when the engine does not say
 * @param prefixCacheHitRate fraction of prompt tokens served from the prefix cache, or NaN
 * @param scrapedAtNanos the scrape time on the picker's monotonic clock
 */
public record EndpointMetrics(
    int waitingRequests,
    int runningRequests,
    double kvCacheUsage,
    long kvCapacityTokens,
    Set<String> runningAdapters,
    Set<String> waitingAdapters,
    int maxLoras,
    double prefixCacheHitRate,
    long scrapedAtNanos) {

  /** Metrics of an endpoint that has not been scraped yet: treated as idle. */
  public static final EndpointMetrics UNKNOWN =
      new EndpointMetrics(0, 0, 0.0, -1, Set.of(), Set.of(), -1, Double.NaN, Long.MIN_VALUE);

  public EndpointMetrics {
    if (waitingRequests < 0) {
      throw new IllegalArgumentException(
          "waitingRequests: " + waitingRequests + " (expected >= 0)");
    }
    if (runningRequests < 0) {
      throw new IllegalArgumentException(
          "runningRequests: " + runningRequests + " (expected >= 0)");
    }
    runningAdapters = runningAdapters == null ? Set.of() : Set.copyOf(runningAdapters);
    waitingAdapters = waitingAdapters == null ? Set.of() : Set.copyOf(waitingAdapters);
  }

  /** KV usage clamped to [0,1], with unknown as 0. */
  public double kvUsageOrZero() {
    return Double.isNaN(kvCacheUsage) ? 0.0 : Math.max(0.0, Math.min(1.0, kvCacheUsage));
  }
}
