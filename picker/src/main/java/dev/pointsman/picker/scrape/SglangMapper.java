package dev.pointsman.picker.scrape;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * SGLang. Each metric is first reduced to its {@link Series#distinct distinct} series (the {@code
 * priority=""} total instead of it plus the per-priority breakdown; one tensor-parallel rank); then
 * request counts and capacity are summed over what is left (one series per data-parallel rank),
 * token usage is the maximum and the cache hit rate the mean.
 *
 * <p>Capacity: {@code sglang:max_total_num_tokens}, else {@code sglang:page_size ×
 * sglang:num_pages} (current SGLang), else the labels of {@code sglang:cache_config_info} (what
 * other exporters and Pointsman's simulator wrote). SGLang does not report LoRA slots: {@code
 * maxLoras} is -1.
 */
final class SglangMapper implements MetricsMapper {

  static final String WAITING = "sglang:num_queue_reqs";
  static final String RUNNING = "sglang:num_running_reqs";
  static final String TOKEN_USAGE = "sglang:token_usage";
  static final String HIT_RATE = "sglang:cache_hit_rate";
  static final String MAX_TOKENS = "sglang:max_total_num_tokens";
  static final String PAGE_SIZE = "sglang:page_size";
  static final String NUM_PAGES = "sglang:num_pages";
  static final String CACHE_CONFIG = "sglang:cache_config_info";

  static final Set<String> NAMES =
      Set.of(
          WAITING, RUNNING, TOKEN_USAGE, HIT_RATE, MAX_TOKENS, PAGE_SIZE, NUM_PAGES, CACHE_CONFIG);

  @Override
  public Mapping map(List<Sample> samples, long scrapedAtNanos) {
    Set<Signal> missing = EnumSet.noneOf(Signal.class);
    int waiting = Gauges.count(sum(samples, WAITING));
    int running = Gauges.count(sum(samples, RUNNING));
    double kv = Gauges.fraction(Gauges.max(samples, TOKEN_USAGE));
    double hitRate = Gauges.fraction(Gauges.mean(Series.distinct(samples, HIT_RATE), HIT_RATE));
    long capacity = capacity(samples);
    Gauges.flag(missing, hitRate, Signal.PREFIX_CACHE);
    return Mapping.withoutAdapters(
        samples, waiting, running, kv, capacity, hitRate, scrapedAtNanos, missing);
  }

  private static double sum(List<Sample> samples, String name) {
    return Gauges.sum(Series.distinct(samples, name), name);
  }

  private static long capacity(List<Sample> samples) {
    double tokens = sum(samples, MAX_TOKENS);
    if (tokens >= 1) {
      return Gauges.product(tokens, 1);
    }
    long pages = Gauges.product(Gauges.max(samples, PAGE_SIZE), sum(samples, NUM_PAGES));
    if (pages > 0) {
      return pages;
    }
    Sample config = Gauges.newest(samples, CACHE_CONFIG);
    return Gauges.product(
        Gauges.labelNumber(config, "page_size"), Gauges.labelNumber(config, "num_pages"));
  }
}
