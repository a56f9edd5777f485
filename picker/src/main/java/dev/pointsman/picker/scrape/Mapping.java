package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The result of mapping one scrape to {@link EndpointMetrics}.
 *
 * @param metrics the metrics; signals in {@code missing} hold their unknown value ({@code -1},
 *     {@code NaN}, or {@code 0} for request counts)
 * @param missing signals the exposition lacked or gave as invalid (negative, NaN): the picker runs
 *     on a fallback for each
 * @param recognised whether the exposition held any series of the engine at all
 * @param notServing why the engine, though answering, serves nothing now (e.g. {@code sleeping});
 *     null when it serves
 * @param restarted whether the engine's counters went backwards since the previous scrape: a new
 *     process, its caches empty
 */
public record Mapping(
    EndpointMetrics metrics,
    Set<Signal> missing,
    boolean recognised,
    String notServing,
    boolean restarted) {
  public Mapping {
    Objects.requireNonNull(metrics, "metrics");
    missing = Set.copyOf(missing);
  }

  /** A serving endpoint's mapping; recognised when {@code samples} (already filtered) has any. */
  static Mapping of(List<Sample> samples, EndpointMetrics metrics, Set<Signal> missing) {
    return new Mapping(metrics, missing, !samples.isEmpty(), null, false);
  }

  /**
   * A serving endpoint's mapping for an engine that reports no adapters (SGLang, TensorRT-LLM):
   * waiting, running, KV use and capacity are flagged in {@code missing} when absent; the caller
   * has flagged the prefix-cache signal its own way.
   */
  static Mapping withoutAdapters(
      List<Sample> samples,
      int waiting,
      int running,
      double kv,
      long capacity,
      double hitRate,
      long scrapedAtNanos,
      Set<Signal> missing) {
    Gauges.flag(missing, waiting, Signal.WAITING_REQUESTS);
    Gauges.flag(missing, running, Signal.RUNNING_REQUESTS);
    Gauges.flag(missing, kv, Signal.KV_CACHE_USAGE);
    Gauges.flag(missing, capacity, Signal.KV_CAPACITY);
    EndpointMetrics metrics =
        new EndpointMetrics(
            Math.max(0, waiting),
            Math.max(0, running),
            kv,
            capacity,
            Set.of(),
            Set.of(),
            -1,
            hitRate,
            scrapedAtNanos);
    return of(samples, metrics, missing);
  }

  /**
   * Whether the exposition is unusable: it holds no series the engine exports — an empty body, a
   * page that is not an exposition, or the wrong engine configured. A recognised page lacking every
   * load signal (trtllm-serve 1.1 exports only latency histograms) is usable: its endpoint is
   * routed on the picker's own in-flight counts, and the signals are reported missing.
   */
  public boolean unusable() {
    return !recognised;
  }

  /** This mapping for an engine that serves nothing now, for {@code reason}. */
  Mapping notServing(String reason) {
    return new Mapping(
        metrics, missing, recognised, Objects.requireNonNull(reason, "reason"), restarted);
  }

  /** This mapping, saying whether the engine restarted since the previous scrape. */
  Mapping restarted(boolean restarted) {
    return new Mapping(metrics, missing, recognised, notServing, restarted);
  }
}
