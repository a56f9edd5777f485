package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * vLLM, V0 (0.7) and V1 (0.8 on). Request counts are summed over series (one per {@code model_name}
 * and per data-parallel {@code engine}); KV capacity is the sum over engines of each one's {@code
 * block_size × num_gpu_blocks}, and KV usage the pod's share of it in use: each engine's usage
 * weighted by its capacity (the plain mean over engines when a capacity is unknown). The
 * prefix-cache hit rate is the ratio of the growth of two counters since this endpoint's previous
 * scrape (0.10+ names, else 0.8's {@code gpu_}-prefixed ones), else V0's hit-rate gauge, so an
 * instance serves one endpoint. A sleeping engine ({@code vllm:engine_sleep_state}) serves nothing:
 * its mapping is not serving.
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

  /** vLLM 0.8–0.10 (deprecated from 0.10 on): in blocks in 0.8, in tokens later. */
  static final String GPU_PREFIX_QUERIES = "vllm:gpu_prefix_cache_queries_total";

  static final String GPU_PREFIX_HITS = "vllm:gpu_prefix_cache_hits_total";

  /** vLLM V0: a hit-rate gauge, -1 while prefix caching is off. */
  static final String GPU_PREFIX_HIT_RATE = "vllm:gpu_prefix_cache_hit_rate";

  static final String SLEEP_STATE = "vllm:engine_sleep_state";

  static final Set<String> NAMES =
      Set.of(
          WAITING,
          RUNNING,
          KV_USAGE,
          KV_USAGE_DEPRECATED,
          CACHE_CONFIG,
          LORA,
          PREFIX_QUERIES,
          PREFIX_HITS,
          GPU_PREFIX_QUERIES,
          GPU_PREFIX_HITS,
          GPU_PREFIX_HIT_RATE,
          SLEEP_STATE);

  private final PrefixCacheRate prefixRate = new PrefixCacheRate();

  @Override
  public Mapping map(List<Sample> samples, long scrapedAtNanos) {
    Set<Signal> missing = EnumSet.noneOf(Signal.class);
    int waiting = Gauges.count(Gauges.sum(samples, WAITING));
    int running = Gauges.count(Gauges.sum(samples, RUNNING));
    Map<String, Long> capacities = capacities(samples);
    long capacity = total(capacities);
    String usageName = Gauges.present(samples, KV_USAGE) ? KV_USAGE : KV_USAGE_DEPRECATED;
    double kv = Gauges.fraction(usage(perEngine(samples, usageName), capacities));
    double hitRate = hitRate(samples);
    Gauges.flag(missing, waiting, Signal.WAITING_REQUESTS);
    Gauges.flag(missing, running, Signal.RUNNING_REQUESTS);
    Gauges.flag(missing, kv, Signal.KV_CACHE_USAGE);
    Gauges.flag(missing, capacity, Signal.KV_CAPACITY);
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
    if (Double.isNaN(hitRate) && !prefixCacheReported(samples)) {
      missing.add(Signal.PREFIX_CACHE);
    }
    Mapping mapping = Mapping.of(samples, metrics, missing).restarted(prefixRate.reset());
    return sleeping(samples) ? mapping.notServing(ScrapeReport.SLEEPING) : mapping;
  }

  /** The hit rate from the newest counters the page has, else V0's gauge; NaN when unknown. */
  private double hitRate(List<Sample> samples) {
    String queries = PREFIX_QUERIES;
    String hits = PREFIX_HITS;
    if (!Gauges.present(samples, PREFIX_QUERIES) && Gauges.present(samples, GPU_PREFIX_QUERIES)) {
      queries = GPU_PREFIX_QUERIES;
      hits = GPU_PREFIX_HITS;
    }
    double rate = prefixRate.update(Gauges.sum(samples, queries), Gauges.sum(samples, hits));
    if (Double.isNaN(rate)) {
      rate = Gauges.fraction(Gauges.max(samples, GPU_PREFIX_HIT_RATE));
    }
    return rate;
  }

  /**
   * Whether the page reports prefix caching at all: both counters of one generation, or a valid V0
   * gauge. (A rate can be NaN with counters present: on the first scrape, or with no query since.)
   */
  private static boolean prefixCacheReported(List<Sample> samples) {
    return (Gauges.present(samples, PREFIX_QUERIES) && Gauges.present(samples, PREFIX_HITS))
        || (Gauges.present(samples, GPU_PREFIX_QUERIES) && Gauges.present(samples, GPU_PREFIX_HITS))
        || Gauges.present(samples, GPU_PREFIX_HIT_RATE);
  }

  /** The engine of a V1 series ({@code engine} label), {@code ""} before V1. */
  private static String engine(Sample s) {
    String engine = s.label("engine");
    return engine == null ? "" : engine;
  }

  /** Each engine's largest valid value of {@code name} (its series differ by model only). */
  private static Map<String, Double> perEngine(List<Sample> samples, String name) {
    Map<String, Double> byEngine = new HashMap<>();
    for (Sample s : samples) {
      if (s.name().equals(name) && Gauges.valid(s.value())) {
        byEngine.merge(engine(s), s.value(), Math::max);
      }
    }
    return byEngine;
  }

  /**
   * The pod's KV usage: used tokens summed over engines over their capacity summed, i.e. each
   * engine's usage weighted by its capacity; the plain mean when an engine's capacity is unknown
   * (data-parallel engines of one pod are deployed alike). NaN when no engine reports usage.
   */
  private static double usage(Map<String, Double> usageByEngine, Map<String, Long> capacities) {
    if (usageByEngine.isEmpty()) {
      return Double.NaN;
    }
    boolean weighted = true;
    for (String engine : usageByEngine.keySet()) {
      weighted &= capacities.getOrDefault(engine, -1L) > 0;
    }
    double used = 0;
    double size = 0;
    for (Map.Entry<String, Double> e : usageByEngine.entrySet()) {
      double weight = weighted ? capacities.get(e.getKey()) : 1;
      used += e.getValue() * weight;
      size += weight;
    }
    return used / size;
  }

  /**
   * KV capacity in tokens per data-parallel engine ({@code engine} label, absent before V1): each
   * engine's newest {@code cache_config_info}; -1 for one whose labels give none.
   */
  private static Map<String, Long> capacities(List<Sample> samples) {
    Map<String, Sample> byEngine = new HashMap<>();
    for (Sample s : samples) {
      if (s.name().equals(CACHE_CONFIG) && Gauges.valid(s.value())) {
        byEngine.merge(engine(s), s, (a, b) -> b.value() > a.value() ? b : a);
      }
    }
    Map<String, Long> capacities = new HashMap<>();
    byEngine.forEach(
        (engine, config) -> {
          long one =
              Gauges.product(
                  Gauges.labelNumber(config, "block_size"),
                  Gauges.labelNumber(config, "num_gpu_blocks"));
          capacities.put(engine, one);
        });
    return capacities;
  }

  /** The pod's capacity, summed over engines; -1 when none or any engine's is unknown. */
  private static long total(Map<String, Long> capacities) {
    long total = 0;
    for (long one : capacities.values()) {
      if (one < 0 || total > Long.MAX_VALUE - one) {
        return -1;
      }
      total += one;
    }
    return capacities.isEmpty() ? -1 : total;
  }

  /**
   * Whether any engine sleeps: vLLM writes one series per {@code sleep_state} — {@code awake} 0
   * while asleep, {@code weights_offloaded} (level 1) or {@code discard_all} (level 2) 1 — and a
   * series without that label is read as a level (above 0 = asleep).
   */
  private static boolean sleeping(List<Sample> samples) {
    for (Sample s : samples) {
      if (!s.name().equals(SLEEP_STATE) || !Gauges.valid(s.value())) {
        continue;
      }
      String state = s.label("sleep_state");
      boolean asleep = "awake".equals(state) ? s.value() == 0 : s.value() > 0;
      if (asleep) {
        return true;
      }
    }
    return false;
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
