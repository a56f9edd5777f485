package dev.pointsman.picker.scrape;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Holds the scraper to a CPU budget by stretching the scrape interval when the fleet is too large
 * for it: every endpoint is then scraped on one tick in {@link #stride()} (each on its own tick, so
 * the fleet stays spread over the interval), never less often than the longest stretch allowed
 * ({@link ScraperConfig#maxStretch()}, by default the datastore's default {@code staleAfter}: an
 * endpoint scraped that often is never reported stale). Once a second it reads the CPU time the
 * scraper's threads used and rescales the stride by used over budget; it shrinks back when there is
 * room again.
 *
 * <p>Thread-safe: {@link #update} may race with itself (one caller wins the period) and with {@link
 * #stride()}.
 */
final class ScrapeBudget {

  private static final long PERIOD_NANOS = 1_000_000_000L;

  private final double cores;
  private final int maxStride;
  private final LongSupplier cpuNanos;
  private volatile int stride = 1;
  private volatile long periodStart = Long.MIN_VALUE;
  private volatile long cpuAtStart;

  /**
   * @param cores the budget, in cores (> 0)
   * @param interval the configured scrape interval
   * @param maxStretch the longest interval the stride may stretch it to
   * @param cpuNanos the CPU time used so far by the threads that scrape
   */
  ScrapeBudget(double cores, Duration interval, Duration maxStretch, LongSupplier cpuNanos) {
    if (!(cores > 0)) {
      throw new IllegalArgumentException("scrape CPU budget: " + cores + " (expected > 0 cores)");
    }
    this.cores = cores;
    this.maxStride = (int) Math.max(1, maxStretch.toNanos() / interval.toNanos());
    this.cpuNanos = cpuNanos;
  }

  /** Scrape one tick in this many. */
  int stride() {
    return stride;
  }

  /** The longest stride allowed. */
  int maxStride() {
    return maxStride;
  }

  /** Rescales the stride once a period has passed since the last rescale; cheap otherwise. */
  void update(long nowNanos) {
    long start = periodStart;
    if (start == Long.MIN_VALUE) {
      begin(nowNanos);
      return;
    }
    long wall = nowNanos - start;
    if (wall < PERIOD_NANOS) {
      return;
    }
    synchronized (this) {
      if (periodStart != start) {
        return;
      }
      double used = (cpuNanos.getAsLong() - cpuAtStart) / (double) wall;
      stride = next(stride, used);
      begin(nowNanos);
    }
  }

  /** The stride that would use the budget: the current one scaled by used over budget. */
  int next(int current, double usedCores) {
    double wanted = current * usedCores / cores;
    int next;
    if (wanted > current) {
      next = (int) Math.ceil(wanted);
    } else if (wanted < current * 0.7) {
      next = (int) Math.ceil(wanted / 0.8); // room to spare: back off with a margin
    } else {
      next = current;
    }
    return Math.max(1, Math.min(maxStride, next));
  }

  private synchronized void begin(long nowNanos) {
    cpuAtStart = cpuNanos.getAsLong();
    periodStart = nowNanos;
  }
}
