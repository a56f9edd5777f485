package dev.pointsman.picker.scrape;

import java.util.Set;

/**
 * Telemetry hook for the scraper, wired to meters by the application. Every argument has bounded
 * cardinality (no addresses). Implementations must be thread-safe and fast; all methods default to
 * doing nothing.
 */
public interface ScrapeObserver {

  /** Does nothing. */
  ScrapeObserver NOOP = new ScrapeObserver() {};

  /**
   * A scrape succeeded.
   *
   * @param skippedLines malformed exposition lines
   * @param missing expected signals the exposition lacked
   */
  default void scraped(Engine engine, long durationNanos, int skippedLines, Set<Signal> missing) {}

  /** A scrape failed; {@code reason} as in {@link ScrapeListener#onFailure}. */
  default void failed(Engine engine, String reason, long durationNanos) {}

  /**
   * A tick did not scrape: {@code in_flight} (the endpoint's previous scrape is still running),
   * {@code concurrency} (the global limit is reached) or {@code budget} (the CPU budget stretches
   * the interval: this endpoint's turn is a later tick).
   */
  default void skipped(String reason) {}

  /**
   * A read of an endpoint's model listing ended: {@code ok}, or a failure reason as in {@link
   * ScrapeListener#onFailure} ({@code parse} for a body that is not an OpenAI model list).
   */
  default void listed(Engine engine, String result) {}
}
