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
 * @param cpuBudgetCores the CPU the scraper may use, in cores ({@link ScrapeBudget}): past it every
 *     endpoint is scraped less often, evenly; 0 turns the budget off
 * @param maxStretch the longest interval the budget may stretch to (at least {@code interval})
 */
public record ScraperConfig(
    Duration interval,
    Duration timeout,
    int maxConcurrent,
    String path,
    Duration modelsInterval,
    String modelsPath,
    double cpuBudgetCores,
    Duration maxStretch) {

  /** Half a core: what 1,024 endpoints at 50 ms were held to (docs/benchmarks.md, "Scraping"). */
  public static final double DEFAULT_CPU_BUDGET_CORES = 0.5;

  /** The datastore's default {@code staleAfter}: an endpoint scraped that often is never stale. */
  public static final Duration DEFAULT_MAX_STRETCH = Duration.ofMillis(250);

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

  /** Settings with the default CPU budget. */
  public ScraperConfig(
      Duration interval,
      Duration timeout,
      int maxConcurrent,
      String path,
      Duration modelsInterval,
      String modelsPath) {
    this(
        interval,
        timeout,
        maxConcurrent,
        path,
        modelsInterval,
        modelsPath,
        DEFAULT_CPU_BUDGET_CORES,
        DEFAULT_MAX_STRETCH.compareTo(interval) < 0 ? interval : DEFAULT_MAX_STRETCH);
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
    if (!(cpuBudgetCores >= 0 && cpuBudgetCores <= 1024)) {
      throw new IllegalArgumentException(
          "scrape.cpuBudgetCores: " + cpuBudgetCores + " (expected 0..1024; 0 turns it off)");
    }
    Objects.requireNonNull(maxStretch, "maxStretch");
    if (maxStretch.compareTo(interval) < 0) {
      throw new IllegalArgumentException(
          "scrape.maxStretchMillis: "
              + maxStretch.toMillis()
              + " (expected >= the interval, "
              + interval.toMillis()
              + ")");
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
    return new ScraperConfig(
        newInterval,
        timeout,
        maxConcurrent,
        path,
        modelsInterval,
        modelsPath,
        cpuBudgetCores,
        maxStretch.compareTo(newInterval) < 0 ? newInterval : maxStretch);
  }

  public ScraperConfig withTimeout(Duration newTimeout) {
    return new ScraperConfig(
        interval,
        newTimeout,
        maxConcurrent,
        path,
        modelsInterval,
        modelsPath,
        cpuBudgetCores,
        maxStretch);
  }

  public ScraperConfig withModelsInterval(Duration newModelsInterval) {
    return new ScraperConfig(
        interval,
        timeout,
        maxConcurrent,
        path,
        newModelsInterval,
        modelsPath,
        cpuBudgetCores,
        maxStretch);
  }

  public ScraperConfig withMaxConcurrent(int newMaxConcurrent) {
    return new ScraperConfig(
        interval,
        timeout,
        newMaxConcurrent,
        path,
        modelsInterval,
        modelsPath,
        cpuBudgetCores,
        maxStretch);
  }

  /** These settings with another CPU budget (0: off) and longest stretched interval. */
  public ScraperConfig withCpuBudget(double cores, Duration newMaxStretch) {
    return new ScraperConfig(
        interval, timeout, maxConcurrent, path, modelsInterval, modelsPath, cores, newMaxStretch);
  }
}
