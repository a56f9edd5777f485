package dev.pointsman.picker.config;

import dev.pointsman.picker.datastore.DatastoreConfig;
import dev.pointsman.picker.scrape.ScrapeTls;
import dev.pointsman.picker.scrape.ScraperConfig;
import java.time.Duration;

/**
 * Model-server metrics scraping, and when an endpoint counts as stale or unavailable.
 *
 * @param intervalMillis time between two scrapes of one endpoint
 * @param timeoutMillis per-scrape timeout
 * @param maxConcurrent scrapes in flight at once
 * @param path the metrics path of every pool that sets none; null (the default): each engine's own
 * @param failureThreshold consecutive failures that make an endpoint unavailable
 * @param staleAfterMillis metrics older than this are reported stale
 * @param unavailableAfterMillis an endpoint without a good scrape for this long is unavailable
 * @param modelsIntervalMillis time between two reads of an endpoint's model listing; 0 = off
 * @param modelsPath the model-listing path
 * @param cpuBudgetCores the CPU the scraper may use, in cores (default 0.5); past it every endpoint
 *     is scraped less often, evenly, up to {@code maxStretchMillis}; 0 turns the budget off
 * @param maxStretchMillis the longest interval the budget may stretch to (default 250, the default
 *     {@code staleAfterMillis})
 * @param tls HTTPS to endpoints that serve it (off by default)
 */
public record ScrapeSection(
    Integer intervalMillis,
    Integer timeoutMillis,
    Integer maxConcurrent,
    String path,
    Integer failureThreshold,
    Integer staleAfterMillis,
    Integer unavailableAfterMillis,
    Integer modelsIntervalMillis,
    String modelsPath,
    Double cpuBudgetCores,
    Integer maxStretchMillis,
    ScrapeTls tls) {

  public static final ScrapeSection DEFAULTS =
      new ScrapeSection(null, null, null, null, null, null, null, null, null, null, null, null);

  public ScrapeSection {
    ScraperConfig s = ScraperConfig.DEFAULT;
    DatastoreConfig d = DatastoreConfig.DEFAULT;
    intervalMillis = intervalMillis == null ? (int) s.interval().toMillis() : intervalMillis;
    timeoutMillis = timeoutMillis == null ? (int) s.timeout().toMillis() : timeoutMillis;
    maxConcurrent = maxConcurrent == null ? s.maxConcurrent() : maxConcurrent;
    path = path == null ? s.path() : path;
    failureThreshold = failureThreshold == null ? d.failureThreshold() : failureThreshold;
    staleAfterMillis =
        staleAfterMillis == null ? (int) d.staleAfter().toMillis() : staleAfterMillis;
    unavailableAfterMillis =
        unavailableAfterMillis == null
            ? (int) d.unavailableAfter().toMillis()
            : unavailableAfterMillis;
    modelsIntervalMillis =
        modelsIntervalMillis == null ? (int) s.modelsInterval().toMillis() : modelsIntervalMillis;
    modelsPath = modelsPath == null ? s.modelsPath() : modelsPath;
    cpuBudgetCores = cpuBudgetCores == null ? s.cpuBudgetCores() : cpuBudgetCores;
    maxStretchMillis =
        maxStretchMillis == null
            ? (int) Math.max(s.maxStretch().toMillis(), intervalMillis)
            : maxStretchMillis;
    tls = tls == null ? ScrapeTls.OFF : tls;
    scraper(
        intervalMillis,
        timeoutMillis,
        maxConcurrent,
        path,
        modelsIntervalMillis,
        modelsPath,
        cpuBudgetCores,
        maxStretchMillis);
    datastore(failureThreshold, staleAfterMillis, unavailableAfterMillis);
  }

  public ScraperConfig scraper() {
    return scraper(
        intervalMillis,
        timeoutMillis,
        maxConcurrent,
        path,
        modelsIntervalMillis,
        modelsPath,
        cpuBudgetCores,
        maxStretchMillis);
  }

  public DatastoreConfig datastore() {
    return datastore(failureThreshold, staleAfterMillis, unavailableAfterMillis);
  }

  private static ScraperConfig scraper(
      int intervalMillis,
      int timeoutMillis,
      int maxConcurrent,
      String path,
      int modelsIntervalMillis,
      String modelsPath,
      double cpuBudgetCores,
      int maxStretchMillis) {
    return new ScraperConfig(
        Duration.ofMillis(intervalMillis),
        Duration.ofMillis(timeoutMillis),
        maxConcurrent,
        path,
        Duration.ofMillis(modelsIntervalMillis),
        modelsPath,
        cpuBudgetCores,
        Duration.ofMillis(maxStretchMillis));
  }

  private static DatastoreConfig datastore(
      int failureThreshold, int staleAfterMillis, int unavailableAfterMillis) {
    return new DatastoreConfig(
        failureThreshold,
        Duration.ofMillis(staleAfterMillis),
        Duration.ofMillis(unavailableAfterMillis));
  }
}
