package dev.pointsman.picker.scrape;

import java.time.Duration;
import java.util.Objects;

/**
 * Scraper settings.
 *
 * @param interval time between two scrapes of one endpoint
 * @param timeout per-scrape timeout; at most {@link #MAX_TIMEOUT_INTERVALS} intervals, so that a
 *     hung endpoint is reported as failing within a bounded number of ticks
 * @param maxConcurrent scrapes in flight across all endpoints
 * @param path the metrics path, starting with {@code /}
 */
public record ScraperConfig(Duration interval, Duration timeout, int maxConcurrent, String path) {

  /** The largest allowed timeout, in intervals. */
  public static final int MAX_TIMEOUT_INTERVALS = 20;

  /**
   * 50 ms interval, 500 ms timeout (below the datastore's default 1 s {@code unavailableAfter}, so
   * a slow but answering endpoint stays available), 64 concurrent scrapes, {@code /metrics}.
   */
  public static final ScraperConfig DEFAULT =
      new ScraperConfig(Duration.ofMillis(50), Duration.ofMillis(500), 64, "/metrics");

  public ScraperConfig {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(path, "path");
    if (interval.compareTo(Duration.ofMillis(1)) < 0) {
      throw new IllegalArgumentException("scrape.interval: " + interval + " (expected >= 1ms)");
    }
    if (timeout.isNegative()
        || timeout.isZero()
        || timeout.compareTo(interval.multipliedBy(MAX_TIMEOUT_INTERVALS)) > 0) {
      throw new IllegalArgumentException(
          "scrape.timeout: "
              + timeout
              + " (expected > 0 and <= "
              + MAX_TIMEOUT_INTERVALS
              + " intervals = "
              + interval.multipliedBy(MAX_TIMEOUT_INTERVALS)
              + ")");
    }
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException(
          "scrape.maxConcurrent: " + maxConcurrent + " (expected >= 1)");
    }
    if (!path.startsWith("/") || path.chars().anyMatch(c -> c <= ' ')) {
      throw new IllegalArgumentException(
          "scrape.path: '" + path + "' (expected an absolute path such as /metrics)");
    }
  }

  public ScraperConfig withInterval(Duration newInterval) {
    return new ScraperConfig(newInterval, timeout, maxConcurrent, path);
  }

  public ScraperConfig withTimeout(Duration newTimeout) {
    return new ScraperConfig(interval, newTimeout, maxConcurrent, path);
  }

  public ScraperConfig withMaxConcurrent(int newMaxConcurrent) {
    return new ScraperConfig(interval, timeout, newMaxConcurrent, path);
  }
}
