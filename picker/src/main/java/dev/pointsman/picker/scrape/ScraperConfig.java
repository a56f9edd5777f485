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
 * @param path the metrics path for every pool, starting with {@code /}; null (the default) for each
 *     engine's own ({@link Engine#defaultMetricsPath()}); a pool's own path wins over both
 * @param modelsInterval time between two reads of an endpoint's model listing (the LoRA adapters
 *     registered there); zero turns them off. Rounded up to whole scrape intervals.
 * @param modelsPath the model-listing path, starting with {@code /}
 */
public record ScraperConfig(
    Duration interval,
    Duration timeout,
    int maxConcurrent,
    String path,
    Duration modelsInterval,
    String modelsPath) {

  /** Every 2 s: an adapter registered or removed is seen within about that. */
  public static final Duration DEFAULT_MODELS_INTERVAL = Duration.ofSeconds(2);

  public static final String DEFAULT_MODELS_PATH = "/v1/models";

  /** The largest allowed timeout, in intervals. */
  public static final int MAX_TIMEOUT_INTERVALS = 20;

  /**
   * 50 ms interval, 500 ms timeout (below the datastore's default 1 s {@code unavailableAfter}, so
   * a slow but answering endpoint stays available), 64 concurrent scrapes, each engine's metrics
   * path.
   */
  public static final ScraperConfig DEFAULT =
      new ScraperConfig(Duration.ofMillis(50), Duration.ofMillis(500), 64, null);

  /** Settings with the default model listing ({@code /v1/models} every 2 s). */
  public ScraperConfig(Duration interval, Duration timeout, int maxConcurrent, String path) {
    this(interval, timeout, maxConcurrent, path, DEFAULT_MODELS_INTERVAL, DEFAULT_MODELS_PATH);
  }

  public ScraperConfig {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(modelsInterval, "modelsInterval");
    Objects.requireNonNull(modelsPath, "modelsPath");
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
    if (path != null) {
      checkPath("scrape.path", path, "/metrics");
    }
    checkPath("scrape.modelsPath", modelsPath, "/v1/models");
    if (modelsInterval.isNegative()) {
      throw new IllegalArgumentException(
          "scrape.modelsInterval: " + modelsInterval + " (expected >= 0; 0 turns it off)");
    }
  }

  static void checkPath(String name, String path, String example) {
    if (!path.startsWith("/") || path.chars().anyMatch(c -> c <= ' ')) {
      throw new IllegalArgumentException(
          name + ": '" + path + "' (expected an absolute path such as " + example + ")");
    }
  }

  /** Metrics scrapes per model listing (0 when listings are off). */
  long ticksPerListing() {
    if (modelsInterval.isZero()) {
      return 0;
    }
    long i = interval.toNanos();
    return Math.max(1, (modelsInterval.toNanos() + i - 1) / i);
  }

  public ScraperConfig withInterval(Duration newInterval) {
    return new ScraperConfig(newInterval, timeout, maxConcurrent, path, modelsInterval, modelsPath);
  }

  public ScraperConfig withTimeout(Duration newTimeout) {
    return new ScraperConfig(interval, newTimeout, maxConcurrent, path, modelsInterval, modelsPath);
  }

  public ScraperConfig withModelsInterval(Duration newModelsInterval) {
    return new ScraperConfig(interval, timeout, maxConcurrent, path, newModelsInterval, modelsPath);
  }

  public ScraperConfig withMaxConcurrent(int newMaxConcurrent) {
    return new ScraperConfig(interval, timeout, newMaxConcurrent, path, modelsInterval, modelsPath);
  }
}
