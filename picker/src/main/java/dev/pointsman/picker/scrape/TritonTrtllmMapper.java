package dev.pointsman.picker.scrape;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Triton Inference Server with the TensorRT-LLM backend (the inflight batcher's {@code
 * nv_trt_llm_*} gauges, on Triton's metrics port, 8002 unless {@code --metrics-port} moved it).
 * Names and labels as in the tensorrtllm_backend README's "Triton Metrics" sample:
 *
 * <ul>
 *   <li>{@code nv_trt_llm_request_metrics{request_type=…}}: {@code active} (requests the batcher
 *       holds), {@code scheduled} (in this iteration's batch), {@code context} (of those, in
 *       prefill), {@code max}; newer backends add {@code waiting}. Running is {@code scheduled};
 *       waiting is {@code waiting}, or {@code active − scheduled} where the backend lacks it.
 *   <li>{@code nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=…}}: {@code used}, {@code
 *       free}, {@code max}, {@code tokens_per}; newer backends add {@code fraction}. KV usage is
 *       {@code fraction}, else {@code used / max}; capacity {@code tokens_per × max}.
 * </ul>
 *
 * Series are summed over models. No prefix-cache rate or LoRA slots are reported.
 */
final class TritonTrtllmMapper implements MetricsMapper {

  /** Triton's default {@code --metrics-port}. */
  static final int METRICS_PORT = 8002;

  static final String REQUESTS = "nv_trt_llm_request_metrics";
  static final String KV_BLOCKS = "nv_trt_llm_kv_cache_block_metrics";

  static final Set<String> NAMES = Set.of(REQUESTS, KV_BLOCKS);

  @Override
  public Mapping map(List<Sample> samples, long scrapedAtNanos) {
    Set<Signal> missing = EnumSet.noneOf(Signal.class);
    double scheduled = requests(samples, "scheduled");
    double waitingValue = requests(samples, "waiting");
    if (Double.isNaN(waitingValue)) {
      double active = requests(samples, "active");
      waitingValue = Double.isNaN(scheduled) ? Double.NaN : Math.max(0, active - scheduled);
    }
    int waiting = Gauges.count(waitingValue);
    int running = Gauges.count(scheduled);
    double maxBlocks = blocks(samples, "max");
    double kv = blocks(samples, "fraction");
    if (Double.isNaN(kv) && maxBlocks > 0) {
      kv = blocks(samples, "used") / maxBlocks;
    }
    kv = Gauges.fraction(kv);
    long capacity = Gauges.product(blocks(samples, "tokens_per"), maxBlocks);
    missing.add(Signal.PREFIX_CACHE);
    return Mapping.withoutAdapters(
        samples, waiting, running, kv, capacity, Double.NaN, scrapedAtNanos, missing);
  }

  private static double requests(List<Sample> samples, String type) {
    return Gauges.sum(Gauges.where(samples, REQUESTS, "request_type", type), REQUESTS);
  }

  /** Summed over models, except {@code tokens_per} (one block size) and fractions: the maximum. */
  private static double blocks(List<Sample> samples, String type) {
    List<Sample> typed = Gauges.where(samples, KV_BLOCKS, "kv_cache_block_type", type);
    return type.equals("tokens_per") || type.equals("fraction")
        ? Gauges.max(typed, KV_BLOCKS)
        : Gauges.sum(typed, KV_BLOCKS);
  }
}
