package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.EngineCounters;
import dev.pointsman.sim.engine.PodSnapshot;
import java.util.Arrays;
import java.util.Set;

/**
 * Renders a pod's state with vLLM's or SGLang's metric names, types and labels. vLLM series carry
 * {@code model_name} and {@code engine="0"}; SGLang series carry {@code model_name}.
 */
final class MetricsRenderer {
  private MetricsRenderer() {}

  static String render(
      String flavor, String model, int maxLoras, PodSnapshot s, TtftHistogram h, double epochSec) {
    return flavor.equals("sglang") ? sglang(model, s, h) : vllm(model, maxLoras, s, h, epochSec);
  }

  private static String vllm(
      String model, int maxLoras, PodSnapshot s, TtftHistogram h, double epochSec) {
    String[] l = {"model_name", model, "engine", "0"};
    PrometheusText t = new PrometheusText();
    gauge(
        t,
        "vllm:num_requests_running",
        "Number of requests in model execution batches.",
        s.running(),
        l);
    gauge(
        t,
        "vllm:num_requests_waiting",
        "Number of requests waiting to be processed.",
        s.waiting(),
        l);
    gauge(
        t,
        "vllm:kv_cache_usage_perc",
        "KV-cache usage. 1 means 100 percent usage.",
        s.kvUsage(),
        l);
    t.family("vllm:cache_config_info", "gauge", "Information of the LLMEngine CacheConfig");
    t.sample(
        "vllm:cache_config_info",
        1,
        concat(
            l,
            "block_size",
            "16",
            "cache_dtype",
            "auto",
            "enable_prefix_caching",
            "True",
            "gpu_memory_utilization",
            "0.9",
            "num_cpu_blocks",
            "0",
            "num_gpu_blocks",
            Integer.toString(s.totalBlocks())));
    t.family("vllm:lora_requests_info", "gauge", "Running stats on lora requests.");
    t.sample(
        "vllm:lora_requests_info",
        epochSec,
        concat(
            l,
            "max_lora",
            Integer.toString(maxLoras),
            "running_lora_adapters",
            join(s.runningAdapters()),
            "waiting_lora_adapters",
            join(s.waitingAdapters())));
    EngineCounters c = s.counters();
    counter(
        t,
        "vllm:prefix_cache_queries",
        "Prefix cache queries, in terms of number of queried tokens.",
        c.prefixQueryTokens(),
        l);
    counter(
        t,
        "vllm:prefix_cache_hits",
        "Prefix cache hits, in terms of number of cached tokens.",
        c.prefixHitTokens(),
        l);
    counter(
        t,
        "vllm:num_preemptions",
        "Cumulative number of preemption from the engine.",
        c.preemptions(),
        l);
    counter(t, "vllm:prompt_tokens", "Number of prefill tokens processed.", c.promptTokens(), l);
    counter(
        t,
        "vllm:generation_tokens",
        "Number of generation tokens processed.",
        c.generationTokens(),
        l);
    histogram(
        t,
        "vllm:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        h,
        l);
    return t.toString();
  }

  private static String sglang(String model, PodSnapshot s, TtftHistogram h) {
    String[] l = {"model_name", model};
    EngineCounters c = s.counters();
    double hitRate =
        c.prefixQueryTokens() == 0 ? 0 : (double) c.prefixHitTokens() / c.prefixQueryTokens();
    PrometheusText t = new PrometheusText();
    gauge(
        t, "sglang:num_queue_reqs", "The number of requests in the waiting queue.", s.waiting(), l);
    gauge(t, "sglang:num_running_reqs", "The number of running requests.", s.running(), l);
    gauge(t, "sglang:token_usage", "The token usage.", s.kvUsage(), l);
    gauge(t, "sglang:cache_hit_rate", "The prefix cache hit rate.", hitRate, l);
    t.family("sglang:cache_config_info", "gauge", "Information of the cache config.");
    t.sample(
        "sglang:cache_config_info",
        1,
        concat(l, "page_size", "16", "num_pages", Integer.toString(s.totalBlocks())));
    histogram(
        t,
        "sglang:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        h,
        l);
    return t.toString();
  }

  private static void gauge(PrometheusText t, String name, String help, double v, String[] l) {
    t.family(name, "gauge", help).sample(name, v, l);
  }

  private static void counter(PrometheusText t, String name, String help, double v, String[] l) {
    t.family(name, "counter", help).sample(name + "_total", v, l);
  }

  private static void histogram(
      PrometheusText t, String name, String help, TtftHistogram h, String[] l) {
    t.family(name, "histogram", help);
    for (int i = 0; i < TtftHistogram.BOUNDS.length; i++) {
      t.sample(
          name + "_bucket",
          h.cumulative(i),
          concat(l, "le", Double.toString(TtftHistogram.BOUNDS[i])));
    }
    t.sample(name + "_bucket", h.count(), concat(l, "le", "+Inf"));
    t.sample(name + "_sum", h.sum(), l);
    t.sample(name + "_count", h.count(), l);
  }

  private static String[] concat(String[] a, String... b) {
    String[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private static String join(Set<String> adapters) {
    return String.join(",", new java.util.TreeSet<>(adapters));
  }
}
