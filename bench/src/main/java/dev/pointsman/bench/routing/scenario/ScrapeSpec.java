package dev.pointsman.bench.routing.scenario;

import dev.pointsman.picker.scrape.ScraperConfig;

/**
 * How policies see pod metrics: a scrape every {@code intervalMs}, pod i's first scrape at a seeded
 * random phase in [0, jitterMs). Each scrape's answer arrives a log-normal lag later (median {@code
 * lagMedianMs}, log-sd {@code lagSigma}) and reflects the pod as it was when the scrape started; a
 * scrape fails with probability {@code failureRate}, when its lag exceeds {@code timeoutMs}, or
 * when the pod is restarting, and a failed scrape leaves the policy's view as it was. A tick that
 * finds the previous scrape of the pod still in flight is skipped, as the picker's scraper skips
 * it.
 *
 * <p>The defaults are chosen, not measured (docs/benchmarks.md): a 5 ms median lag with sigma 1
 * (p99 about 50 ms: a busy server's Python event loop answering {@code /metrics} late), one scrape
 * in a thousand failing, and the picker's own 500 ms timeout.
 */
public record ScrapeSpec(
    Double intervalMs,
    Double jitterMs,
    Double lagMedianMs,
    Double lagSigma,
    Double failureRate,
    Double timeoutMs) {
  /** Default median lag. */
  public static final double DEFAULT_LAG_MEDIAN_MS = 5;

  /** Default log-sd of the lag. */
  public static final double DEFAULT_LAG_SIGMA = 1;

  /** Default probability that a scrape fails. */
  public static final double DEFAULT_FAILURE_RATE = 0.001;

  public ScrapeSpec {
    intervalMs = Check.positive("intervalMs", intervalMs, 50.0);
    jitterMs = Check.nonNegative("jitterMs", jitterMs, 50.0);
    lagMedianMs = Check.nonNegative("lagMedianMs", lagMedianMs, DEFAULT_LAG_MEDIAN_MS);
    lagSigma = Check.nonNegative("lagSigma", lagSigma, DEFAULT_LAG_SIGMA);
    failureRate = Check.fraction("failureRate", failureRate, DEFAULT_FAILURE_RATE);
    timeoutMs =
        Check.positive("timeoutMs", timeoutMs, (double) ScraperConfig.DEFAULT.timeout().toMillis());
  }

  public static ScrapeSpec defaults() {
    return new ScrapeSpec(null, null, null, null, null, null);
  }

  /** The same schedule with answers that arrive at once and never fail: the clean world's. */
  public ScrapeSpec withoutFaults() {
    return new ScrapeSpec(intervalMs, jitterMs, 0.0, 0.0, 0.0, timeoutMs);
  }

  /** Whether every answer arrives at once and none fails. */
  public boolean isClean() {
    return lagMedianMs == 0 && failureRate == 0;
  }
}
