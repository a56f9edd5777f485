package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.EngineCounters;
import dev.pointsman.sim.engine.PodSnapshot;
import java.util.List;

/**
 * SGLang's {@code /metrics} ({@code --enable-metrics}). Scheduler series are labelled {@code
 * engine_type}, {@code model_name}, {@code pp_rank} and {@code tp_rank} (one set per reporting
 * rank, all with the same numbers, as with {@code --enable-metrics-for-all-schedulers}); with
 * priority scheduling every scheduler series also carries {@code priority=""}, and the running and
 * queued counts add one series per priority whose values sum to the total. Tokenizer series
 * (tokens, latency histograms) carry {@code model_name} only. Capacity is {@code
 * sglang:max_total_num_tokens}, {@code sglang:page_size} (SGLang's default 1) and {@code
 * sglang:num_pages}; there is no {@code sglang:cache_config_info}. Names and labels from the
 * capture in {@code ../shared/engine-captures/} and SGLang's {@code metrics_collector.py} and
 * {@code scheduler_metrics_mixin.py}.
 *
 * <p>The simulator does not track request priorities: the per-priority counts are a deterministic
 * split of the totals over the configured priorities (the first ones get the remainder).
 */
final class SglangMetrics {
  private SglangMetrics() {}

  static String render(PodView v) {
    PodSnapshot s = v.snapshot();
    EngineCounters c = s.counters();
    double hitRate =
        c.prefixQueryTokens() == 0 ? 0 : (double) c.prefixHitTokens() / c.prefixQueryTokens();
    long used = (long) s.usedBlocks() * v.blockSize();
    PrometheusText t = new PrometheusText();
    counts(t, v, "sglang:num_running_reqs", "The number of running requests.", s.running());
    scheduler(t, v, "sglang:num_used_tokens", "The number of used tokens.", used);
    scheduler(t, v, "sglang:token_usage", "The token usage.", s.kvUsage());
    counts(
        t, v, "sglang:num_queue_reqs", "The number of requests in the waiting queue.", s.waiting());
    scheduler(t, v, "sglang:cache_hit_rate", "The prefix cache hit rate.", hitRate);
    scheduler(
        t,
        v,
        "sglang:max_total_num_tokens",
        "Maximum total number of tokens in the KV cache pool.",
        v.capacityTokens());
    scheduler(t, v, "sglang:page_size", "KV cache page size in tokens.", 1);
    scheduler(t, v, "sglang:num_pages", "Number of KV cache pages.", v.capacityTokens());
    String[] model = {"model_name", v.model()};
    t.counter(
        "sglang:prompt_tokens_total",
        "Number of prefill tokens processed.",
        c.promptTokens(),
        model);
    t.counter(
        "sglang:generation_tokens_total",
        "Number of generation tokens processed.",
        c.generationTokens(),
        model);
    t.histogram(
        "sglang:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        v.ttft(),
        model);
    t.histogram(
        "sglang:e2e_request_latency_seconds",
        "Histogram of End-to-end request latency in seconds",
        v.e2e(),
        model);
    return t.toString();
  }

  private static String[] labels(PodView v, int rank) {
    String[] l = {
      "engine_type", "unified", "model_name", v.model(), "pp_rank", "0", "tp_rank", "" + rank
    };
    return v.options().priorities().isEmpty() ? l : PrometheusText.with(l, "priority", "");
  }

  private static void scheduler(PrometheusText t, PodView v, String name, String help, double x) {
    t.family(name, "gauge", help);
    for (int r = 0; r < v.options().reportingRanks(); r++) {
      t.sample(name, x, labels(v, r));
    }
  }

  /** A request count: the total, then with priority scheduling one series per priority. */
  private static void counts(PrometheusText t, PodView v, String name, String help, int total) {
    List<Integer> priorities = v.options().priorities();
    t.family(name, "gauge", help);
    for (int r = 0; r < v.options().reportingRanks(); r++) {
      String[] l = labels(v, r);
      t.sample(name, total, l);
      for (int i = 0; i < priorities.size(); i++) {
        String[] p = l.clone();
        p[p.length - 1] = Integer.toString(priorities.get(i));
        t.sample(name, PodView.share(total, priorities.size(), i), p);
      }
    }
  }
}
