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
 * @param listedAdapters the adapters the endpoint's {@code /v1/models} lists, read on its own,
 *     slower schedule and carried with each scrape; {@link AdapterListing#UNKNOWN} when not read
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
    long scrapedAtNanos,
    AdapterListing listedAdapters) {

  /** Metrics of an endpoint that has not been scraped yet: treated as idle. */
  public static final EndpointMetrics UNKNOWN =
      new EndpointMetrics(0, 0, 0.0, -1, Set.of(), Set.of(), -1, Double.NaN, Long.MIN_VALUE);

  /** Metrics without an adapter listing. */
  public EndpointMetrics(
      int waitingRequests,
      int runningRequests,
      double kvCacheUsage,
      long kvCapacityTokens,
      Set<String> runningAdapters,
      Set<String> waitingAdapters,
      int maxLoras,
      double prefixCacheHitRate,
      long scrapedAtNanos) {
    this(
        waitingRequests,
        runningRequests,
        kvCacheUsage,
        kvCapacityTokens,
        runningAdapters,
        waitingAdapters,
        maxLoras,
        prefixCacheHitRate,
        scrapedAtNanos,
        AdapterListing.UNKNOWN);
  }

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
    listedAdapters = listedAdapters == null ? AdapterListing.UNKNOWN : listedAdapters;
  }

  /** These metrics with {@code listing} as the adapter listing. */
  public EndpointMetrics withListing(AdapterListing listing) {
    return new EndpointMetrics(
        waitingRequests,
        runningRequests,
        kvCacheUsage,
        kvCapacityTokens,
        runningAdapters,
        waitingAdapters,
        maxLoras,
        prefixCacheHitRate,
        scrapedAtNanos,
        listing);
  }

  /** KV usage clamped to [0,1], with unknown as 0. */
  public double kvUsageOrZero() {
    return Double.isNaN(kvCacheUsage) ? 0.0 : Math.max(0.0, Math.min(1.0, kvCacheUsage));
  }
}
