package dev.pointsman.picker.scrape;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * TensorRT-LLM's {@code trtllm-serve}, read at {@code /prometheus/metrics}. What it exports depends
 * on the version:
 *
 * <ul>
 *   <li>1.1 (the {@code MetricsCollector} of late 2025): five request metrics without a prefix —
 *       {@code request_success_total} and the histograms {@code e2e_request_latency_seconds},
 *       {@code time_to_first_token_seconds}, {@code time_per_output_token_seconds}, {@code
 *       request_queue_time_seconds} — and no load gauge at all. Such a page is recognised (so the
 *       endpoint is routed, on the picker's own in-flight counts) and every load signal is reported
 *       missing.
 *   <li>later versions: {@code trtllm_}-prefixed names with iteration stats: {@code
 *       trtllm_num_requests_waiting}, {@code trtllm_num_requests_running}, {@code
 *       trtllm_kv_cache_utilization}, {@code trtllm_kv_cache_tokens_per_block} × {@code
 *       trtllm_kv_cache_max_blocks}, and block-reuse counters giving a prefix-cache hit rate.
 * </ul>
 *
 * Counts summed over series, utilization the maximum. No LoRA slots are reported.
 */
final class TrtllmMapper implements MetricsMapper {

  static final String WAITING = "trtllm_num_requests_waiting";
  static final String RUNNING = "trtllm_num_requests_running";
  static final String KV_USAGE = "trtllm_kv_cache_utilization";
  static final String TOKENS_PER_BLOCK = "trtllm_kv_cache_tokens_per_block";
  static final String MAX_BLOCKS = "trtllm_kv_cache_max_blocks";
  static final String REUSED_BLOCKS = "trtllm_kv_cache_reused_blocks_total";
  static final String MISSED_BLOCKS = "trtllm_kv_cache_missed_blocks_total";

  /** Names that only tell the page is trtllm-serve's: 1.1's unprefixed ones, later prefixed. */
  static final Set<String> RECOGNISED =
      Set.of(
          "request_success_total",
          "e2e_request_latency_seconds_sum",
          "e2e_request_latency_seconds_count",
          "time_to_first_token_seconds_count",
          "trtllm_request_success_total",
          "trtllm_e2e_request_latency_seconds_count");

  static final Set<String> NAMES =
      Stream.concat(
              Stream.of(
                  WAITING,
                  RUNNING,
                  KV_USAGE,
                  TOKENS_PER_BLOCK,
                  MAX_BLOCKS,
                  REUSED_BLOCKS,
                  MISSED_BLOCKS),
              RECOGNISED.stream())
          .collect(Collectors.toUnmodifiableSet());

  private final PrefixCacheRate prefixRate = new PrefixCacheRate();

  @Override
  public Mapping map(List<Sample> samples, long scrapedAtNanos) {
    Set<Signal> missing = EnumSet.noneOf(Signal.class);
    int waiting = Gauges.count(Gauges.sum(samples, WAITING));
    int running = Gauges.count(Gauges.sum(samples, RUNNING));
    double kv = Gauges.fraction(Gauges.max(samples, KV_USAGE));
    long capacity =
        Gauges.product(Gauges.max(samples, TOKENS_PER_BLOCK), Gauges.max(samples, MAX_BLOCKS));
    double reused = Gauges.sum(samples, REUSED_BLOCKS);
    double hitRate = prefixRate.update(reused + Gauges.sum(samples, MISSED_BLOCKS), reused);
    if (!Gauges.present(samples, REUSED_BLOCKS) || !Gauges.present(samples, MISSED_BLOCKS)) {
      missing.add(Signal.PREFIX_CACHE);
    }
    return Mapping.withoutAdapters(
            samples, waiting, running, kv, capacity, hitRate, scrapedAtNanos, missing)
        .restarted(prefixRate.reset());
  }
}
