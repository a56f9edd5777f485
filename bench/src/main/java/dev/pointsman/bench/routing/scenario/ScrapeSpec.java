package dev.pointsman.bench.routing.scenario;

/**
 * How policies see pod metrics: a scrape every {@code intervalMs}, pod i's first scrape at a seeded
 * random phase in [0, jitterMs).
 */
public record ScrapeSpec(Double intervalMs, Double jitterMs) {
  public ScrapeSpec {
    intervalMs = Check.positive("intervalMs", intervalMs, 50.0);
    jitterMs = Check.nonNegative("jitterMs", jitterMs, 50.0);
  }

  public static ScrapeSpec defaults() {
    return new ScrapeSpec(null, null);
  }
}
