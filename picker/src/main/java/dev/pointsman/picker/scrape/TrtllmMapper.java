package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * TensorRT-LLM ({@code trtllm-serve}). Counts summed over series, utilization the maximum, capacity
 * {@code tokens_per_block × max_blocks}. No LoRA slots or prefix-cache rate are reported.
 */
final class TrtllmMapper implements MetricsMapper {

  static final String WAITING = "trtllm_num_requests_waiting";
  static final String RUNNING = "trtllm_num_requests_running";
  static final String KV_USAGE = "trtllm_kv_cache_utilization";
  static final String TOKENS_PER_BLOCK = "trtllm_kv_cache_tokens_per_block";
  static final String MAX_BLOCKS = "trtllm_kv_cache_max_blocks";

  static final Set<String> NAMES = Set.of(WAITING, RUNNING, KV_USAGE, TOKENS_PER_BLOCK, MAX_BLOCKS);

  @Override
  public Mapping map(List<Sample> samples, long scrapedAtNanos) {
    Set<Signal> missing = EnumSet.noneOf(Signal.class);
    int waiting = Gauges.count(Gauges.sum(samples, WAITING));
    int running = Gauges.count(Gauges.sum(samples, RUNNING));
    double kv = Gauges.fraction(Gauges.max(samples, KV_USAGE));
    long capacity =
        Gauges.product(Gauges.max(samples, TOKENS_PER_BLOCK), Gauges.max(samples, MAX_BLOCKS));
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
            Double.NaN,
            scrapedAtNanos);
    return new Mapping(metrics, missing);
  }
}
