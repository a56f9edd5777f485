package dev.pointsman.picker.scrape;

/**
 * Hit rate of a prefix cache from two monotonic token counters, over the interval between two
 * scrapes: {@code Δhits / Δqueries}. NaN on the first scrape, when a counter is missing, when no
 * query happened in between, or after a counter reset (the engine restarted). Not thread-safe.
 */
final class PrefixCacheRate {

  private double lastQueries = Double.NaN;
  private double lastHits = Double.NaN;
  private boolean reset;

  /** Records the counters of a new scrape and returns the hit rate since the previous one. */
  double update(double queries, double hits) {
    double deltaQueries = queries - lastQueries;
    double deltaHits = hits - lastHits;
    reset = deltaQueries < 0 || deltaHits < 0;
    lastQueries = queries;
    lastHits = hits;
    if (!(deltaQueries > 0) || !(deltaHits >= 0)) {
      return Double.NaN;
    }
    return Gauges.fraction(deltaHits / deltaQueries);
  }

  /**
   * Whether a counter went backwards at the last {@link #update}: a new engine process behind the
   * address, its caches empty. (A counter missing on either side is no evidence.)
   */
  boolean reset() {
    return reset;
  }
}
