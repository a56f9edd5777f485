package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * SGLang. Request counts are summed over series (one per rank when data-parallel), token usage is
 * the maximum and the cache hit rate the mean. Capacity comes from {@code sglang:cache_config_info}
 * when the server exposes it. SGLang does not report LoRA slots: {@code maxLoras} is -1.
 */
final class SglangMapper implements MetricsMapper {

  static final String WAITING = "sglang:num_queue_reqs";
  static final String RUNNING = "sglang:num_running_reqs";
  static final String TOKEN_USAGE = "sglang:token_usage";
  static final String HIT_RATE = "sglang:cache_hit_rate";
  static final String CACHE_CONFIG = "sglang:cache_config_info";

  static final Set<String> NAMES = Set.of(WAITING, RUNNING, TOKEN_USAGE, HIT_RATE, CACHE_CONFIG);

  @Override
  public Mapping map(List<Sample> samples, long scrapedAtNanos) {
    Set<Signal> missing = EnumSet.noneOf(Signal.class);
    int waiting = Gauges.count(Gauges.sum(samples, WAITING));
    int running = Gauges.count(Gauges.sum(samples, RUNNING));
    double kv = Gauges.fraction(Gauges.max(samples, TOKEN_USAGE));
    double hitRate = Gauges.fraction(Gauges.mean(samples, HIT_RATE));
    Sample config = Gauges.newest(samples, CACHE_CONFIG);
    long capacity =
        Gauges.product(
            Gauges.labelNumber(config, "page_size"), Gauges.labelNumber(config, "num_pages"));
    Gauges.flag(missing, waiting, Signal.WAITING_REQUESTS);
    Gauges.flag(missing, running, Signal.RUNNING_REQUESTS);
    Gauges.flag(missing, kv, Signal.KV_CACHE_USAGE);
    Gauges.flag(missing, hitRate, Signal.PREFIX_CACHE);
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
    return new Mapping(metrics, missing);
  }
}
