package dev.pointsman.picker.config;

import dev.pointsman.picker.datastore.DatastoreConfig;
import dev.pointsman.picker.scrape.ScraperConfig;
import java.time.Duration;

/**
 * Model-server metrics scraping, and when an endpoint counts as stale or unavailable.
 *
 * @param intervalMillis time between two scrapes of one endpoint
 * @param timeoutMillis per-scrape timeout
 * @param maxConcurrent scrapes in flight at once
 * @param path the metrics path
 * @param failureThreshold consecutive failures that make an endpoint unavailable
 * @param staleAfterMillis metrics older than this are reported stale
 * @param unavailableAfterMillis an endpoint without a good scrape for this long is unavailable
 */
public record ScrapeSection(
    Integer intervalMillis,
    Integer timeoutMillis,
    Integer maxConcurrent,
    String path,
    Integer failureThreshold,
    Integer staleAfterMillis,
    Integer unavailableAfterMillis) {

  public static final ScrapeSection DEFAULTS =
      new ScrapeSection(null, null, null, null, null, null, null);

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
    scraper(intervalMillis, timeoutMillis, maxConcurrent, path);
    datastore(failureThreshold, staleAfterMillis, unavailableAfterMillis);
  }

  public ScraperConfig scraper() {
    return scraper(intervalMillis, timeoutMillis, maxConcurrent, path);
  }

  public DatastoreConfig datastore() {
    return datastore(failureThreshold, staleAfterMillis, unavailableAfterMillis);
  }

  private static ScraperConfig scraper(
      int intervalMillis, int timeoutMillis, int maxConcurrent, String path) {
    return new ScraperConfig(
        Duration.ofMillis(intervalMillis), Duration.ofMillis(timeoutMillis), maxConcurrent, path);
  }

  private static DatastoreConfig datastore(
      int failureThreshold, int staleAfterMillis, int unavailableAfterMillis) {
    return new DatastoreConfig(
        failureThreshold,
        Duration.ofMillis(staleAfterMillis),
        Duration.ofMillis(unavailableAfterMillis));
  }
}
