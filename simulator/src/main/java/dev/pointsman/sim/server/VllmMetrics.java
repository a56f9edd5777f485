package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.EngineCounters;
import dev.pointsman.sim.engine.PodSnapshot;
import java.util.TreeSet;
import java.util.function.IntToDoubleFunction;

/**
 * vLLM V1's {@code /metrics} (0.11 and later): series labelled {@code engine} and {@code
 * model_name}, counter families named with {@code _total} and each followed by a {@code _created}
 * gauge, {@code vllm:engine_sleep_state} per engine, {@code vllm:cache_config_info} labelled by
 * engine only and {@code vllm:lora_requests_info} without engine or model (only when LoRA is on).
 * Shapes from the captures in {@code ../shared/engine-captures/} and {@code
 * vllm/v1/metrics/loggers.py}.
 *
 * <p>A data-parallel pod is one simulated engine whose counts, blocks and counters are reported as
 * {@code dataParallel} near-equal engine shares (their sum is the pod's); its latency histograms
 * are all under {@code engine="0"}.
 */
final class VllmMetrics {
  private VllmMetrics() {}

  static String render(PodView v) {
    PodSnapshot s = v.snapshot();
    EngineCounters c = s.counters();
    int n = v.options().dataParallel();
    PrometheusText t = new PrometheusText();
    gauges(
        t,
        v,
        "vllm:num_requests_running",
        "Number of requests in model execution batches.",
        e -> PodView.share(s.running(), n, e));
    gauges(
        t,
        v,
        "vllm:num_requests_waiting",
        "Number of requests waiting to be processed.",
        e -> PodView.share(s.waiting(), n, e));
    sleepState(t, v);
    gauges(
        t,
        v,
        "vllm:kv_cache_usage_perc",
        "KV-cache usage. 1 means 100 percent usage.",
        e -> s.kvUsage());
    counters(
        t,
        v,
        "vllm:prefix_cache_queries",
        "Prefix cache queries, in terms of number of queried tokens.",
        c.prefixQueryTokens());
    counters(
        t,
        v,
        "vllm:prefix_cache_hits",
        "Prefix cache hits, in terms of number of cached tokens.",
        c.prefixHitTokens());
    counters(
        t,
        v,
        "vllm:num_preemptions",
        "Cumulative number of preemption from the engine.",
        c.preemptions());
    counters(t, v, "vllm:prompt_tokens", "Number of prefill tokens processed.", c.promptTokens());
    counters(
        t,
        v,
        "vllm:generation_tokens",
        "Number of generation tokens processed.",
        c.generationTokens());
    histograms(
        t,
        v,
        "vllm:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        v.ttft());
    histograms(
        t,
        v,
        "vllm:e2e_request_latency_seconds",
        "Histogram of e2e request latency in seconds.",
        v.e2e());
    cacheConfig(t, v);
    lora(t, v);
    return t.toString();
  }

  private static String[] labels(PodView v, int engine) {
    return new String[] {"engine", Integer.toString(engine), "model_name", v.model()};
  }

  private static void gauges(
      PrometheusText t, PodView v, String name, String help, IntToDoubleFunction value) {
    t.family(name, "gauge", help);
    for (int e = 0; e < v.options().dataParallel(); e++) {
      t.sample(name, value.applyAsDouble(e), labels(v, e));
    }
  }

  private static void counters(PrometheusText t, PodView v, String base, String help, long total) {
    int n = v.options().dataParallel();
    t.family(base + "_total", "counter", help);
    for (int e = 0; e < n; e++) {
      t.sample(base + "_total", PodView.share(total, n, e), labels(v, e));
    }
    t.family(base + "_created", "gauge", help);
    for (int e = 0; e < n; e++) {
      t.sample(base + "_created", v.startEpochSec(), labels(v, e));
    }
  }

  private static void histograms(
      PrometheusText t, PodView v, String name, String help, LatencyHistogram h) {
    t.family(name, "histogram", help);
    LatencyHistogram empty = h.emptyCopy();
    for (int e = 0; e < v.options().dataParallel(); e++) {
      t.buckets(name, e == 0 ? h : empty, labels(v, e));
    }
  }

  private static void sleepState(PrometheusText t, PodView v) {
    String name = "vllm:engine_sleep_state";
    t.family(
        name,
        "gauge",
        "Engine sleep state; awake = 0 means engine is sleeping; awake = 1 means engine is awake;"
            + " weights_offloaded = 1 means sleep level 1; discard_all = 1 means sleep level 2.");
    String[] states = {"awake", "weights_offloaded", "discard_all"};
    for (int i = 0; i < states.length; i++) {
      for (int e = 0; e < v.options().dataParallel(); e++) {
        t.sample(
            name,
            v.sleepLevel() == i ? 1 : 0,
            PrometheusText.with(labels(v, e), "sleep_state", states[i]));
      }
    }
  }

  /** The cache config labels of vLLM 0.11 (its capture), less the per-pod ones. */
  private static final String[] CACHE_CONFIG = {
    "cache_dtype", "auto",
    "calculate_kv_scales", "False",
    "cpu_kvcache_space_bytes", "None",
    "cpu_offload_gb", "0.0",
    "enable_prefix_caching", "True",
    "gpu_memory_utilization", "0.9",
    "is_attention_free", "False",
    "kv_cache_memory_bytes", "None",
    "kv_sharing_fast_prefill", "False",
    "mamba_cache_dtype", "auto",
    "mamba_page_size_padded", "None",
    "mamba_ssm_cache_dtype", "auto",
    "num_cpu_blocks", "None",
    "num_gpu_blocks_override", "None",
    "prefix_caching_hash_algo", "sha256",
    "sliding_window", "None",
    "swap_space", "0.0",
    "swap_space_bytes", "0.0"
  };

  private static void cacheConfig(PrometheusText t, PodView v) {
    int n = v.options().dataParallel();
    t.family("vllm:cache_config_info", "gauge", "Information of the LLMEngine CacheConfig");
    for (int e = 0; e < n; e++) {
      t.sample(
          "vllm:cache_config_info",
          1,
          PrometheusText.with(
              CACHE_CONFIG,
              "block_size",
              Integer.toString(v.blockSize()),
              "engine",
              Integer.toString(e),
              "num_gpu_blocks",
              Long.toString(PodView.share(v.snapshot().totalBlocks(), n, e))));
    }
  }

  private static void lora(PrometheusText t, PodView v) {
    if (v.maxLoras() == 0) {
      return; // vLLM registers this family only with --enable-lora
    }
    t.family("vllm:lora_requests_info", "gauge", "Running stats on lora requests.");
    t.sample(
        "vllm:lora_requests_info",
        v.nowEpochSec(),
        "max_lora",
        Integer.toString(v.maxLoras()),
        "running_lora_adapters",
        String.join(",", new TreeSet<>(v.snapshot().runningAdapters())),
        "waiting_lora_adapters",
        String.join(",", new TreeSet<>(v.snapshot().waitingAdapters())));
  }
}
