package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * vLLM (V1 engine, v0.10+). Request counts are summed over series (one per {@code model_name} /
 * {@code engine}); KV usage is the maximum. The prefix-cache hit rate is the ratio of the growth of
 * two token counters since this endpoint's previous scrape, so an instance serves one endpoint.
 */
final class VllmMapper implements MetricsMapper {

  static final String WAITING = "vllm:num_requests_waiting";
  static final String RUNNING = "vllm:num_requests_running";
  static final String KV_USAGE = "vllm:kv_cache_usage_perc";
  static final String KV_USAGE_DEPRECATED = "vllm:gpu_cache_usage_perc";
  static final String CACHE_CONFIG = "vllm:cache_config_info";
  static final String LORA = "vllm:lora_requests_info";
  static final String PREFIX_QUERIES = "vllm:prefix_cache_queries_total";
  static final String PREFIX_HITS = "vllm:prefix_cache_hits_total";

  static final Set<String> NAMES =
      Set.of(
          WAITING,
          RUNNING,
          KV_USAGE,
          KV_USAGE_DEPRECATED,
          CACHE_CONFIG,
          LORA,
          PREFIX_QUERIES,
          PREFIX_HITS);

  private final PrefixCacheRate prefixRate = new PrefixCacheRate();

  @Override
  public Mapping map(List<Sample> samples, long scrapedAtNanos) {
    Set<Signal> missing = EnumSet.noneOf(Signal.class);
    int waiting = Gauges.count(Gauges.sum(samples, WAITING));
    int running = Gauges.count(Gauges.sum(samples, RUNNING));
    double kv = Gauges.max(samples, KV_USAGE);
    if (Double.isNaN(kv)) {
      kv = Gauges.max(samples, KV_USAGE_DEPRECATED);
    }
    kv = Gauges.fraction(kv);
    long capacity = capacity(Gauges.newest(samples, CACHE_CONFIG));
    double queries = Gauges.sum(samples, PREFIX_QUERIES);
    double hits = Gauges.sum(samples, PREFIX_HITS);
    double hitRate = prefixRate.update(queries, hits);
    Gauges.flag(missing, waiting, Signal.WAITING_REQUESTS);
    Gauges.flag(missing, running, Signal.RUNNING_REQUESTS);
    Gauges.flag(missing, kv, Signal.KV_CACHE_USAGE);
    Gauges.flag(missing, capacity, Signal.KV_CAPACITY);
    Gauges.flag(missing, queries + hits, Signal.PREFIX_CACHE);
    Lora lora = Lora.of(Gauges.newest(samples, LORA));
    EndpointMetrics metrics =
        new EndpointMetrics(
            Math.max(0, waiting),
            Math.max(0, running),
            kv,
            capacity,
            lora.running(),
            lora.waiting(),
            lora.maxLoras(),
            hitRate,
            scrapedAtNanos);
    return new Mapping(metrics, missing);
  }

  private static long capacity(Sample cacheConfig) {
    return Gauges.product(
        Gauges.labelNumber(cacheConfig, "block_size"),
        Gauges.labelNumber(cacheConfig, "num_gpu_blocks"));
  }

  /** The newest {@code vllm:lora_requests_info} series, decoded. */
  private record Lora(Set<String> running, Set<String> waiting, int maxLoras) {
    static final Lora NONE = new Lora(Set.of(), Set.of(), -1);

    static Lora of(Sample sample) {
      if (sample == null) {
        return NONE;
      }
      double max = Gauges.labelNumber(sample, "max_lora");
      return new Lora(
          Adapters.split(sample.label("running_lora_adapters")),
          Adapters.split(sample.label("waiting_lora_adapters")),
          Double.isNaN(max) ? -1 : (int) Math.min(Integer.MAX_VALUE, max));
    }
  }
}
