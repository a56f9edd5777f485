package dev.pointsman.sim.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pointsman.sim.engine.EngineCounters;
import dev.pointsman.sim.engine.PodSnapshot;
import java.time.Instant;

/**
 * TensorRT-LLM's {@code trtllm-serve}: iteration statistics as JSON at {@code /metrics}, Prometheus
 * text at {@code /prometheus/metrics}. Series carry {@code engine_type} and {@code model_name},
 * both {@code "undefined"} as the captured server wrote them. Release {@code current} writes the
 * {@code trtllm_}-prefixed names of the newest collector ({@code
 * tensorrt_llm/metrics/collector.py}, 2026), queue, KV-cache and request families included; release
 * {@code 1.1} writes the unprefixed request families only (as captured from a 1.1-era server: no
 * load or KV-cache gauges).
 */
final class TrtllmMetrics {
  private static final String[] LABELS = {"engine_type", "undefined", "model_name", "undefined"};

  private TrtllmMetrics() {}

  static String prometheus(PodView v) {
    boolean current = v.options().release().equals("current");
    String p = current ? "trtllm_" : "";
    PodSnapshot s = v.snapshot();
    EngineCounters c = s.counters();
    PrometheusText t = new PrometheusText();
    t.counter(
        p + "request_success_total",
        "Count of successfully processed requests.",
        c.finished(),
        PrometheusText.with(LABELS, "finished_reason", "length"));
    t.histogram(
        p + "e2e_request_latency_seconds",
        "Histogram of end to end request latency in seconds.",
        v.e2e(),
        LABELS);
    t.histogram(
        p + "time_to_first_token_seconds",
        "Histogram of time to first token in seconds.",
        v.ttft(),
        LABELS);
    if (!current) {
      return t.toString();
    }
    t.counter(
        p + "prompt_tokens_total",
        "Cumulative number of prompt (input) tokens processed.",
        c.promptTokens(),
        LABELS);
    t.counter(
        p + "generation_tokens_total",
        "Cumulative number of generation (output) tokens produced.",
        c.generationTokens(),
        LABELS);
    t.gauge(p + "kv_cache_hit_rate", "KV cache hit rate", hitRate(c), LABELS);
    // the collector's block-reuse counters; the simulator counts prefix tokens, so whole blocks
    long reused = c.prefixHitTokens() / v.blockSize();
    t.counter(
        p + "kv_cache_reused_blocks_total",
        "Cumulative number of reused KV cache blocks",
        reused,
        LABELS);
    t.counter(
        p + "kv_cache_missed_blocks_total",
        "Cumulative number of missed KV cache blocks",
        c.prefixQueryTokens() / v.blockSize() - reused,
        LABELS);
    t.gauge(p + "kv_cache_utilization", "KV cache utilization", s.kvUsage(), LABELS);
    t.gauge(p + "num_requests_running", "Number of active requests", s.running(), LABELS);
    t.gauge(p + "num_requests_waiting", "Number of queued requests", s.waiting(), LABELS);
    t.gauge(
        p + "max_num_active_requests", "Maximum number of active requests", v.maxNumSeqs(), LABELS);
    t.gauge(
        p + "kv_cache_max_blocks", "Maximum number of KV cache blocks", s.totalBlocks(), LABELS);
    t.gauge(
        p + "kv_cache_free_blocks",
        "Number of free KV cache blocks",
        s.totalBlocks() - s.usedBlocks(),
        LABELS);
    t.gauge(p + "kv_cache_used_blocks", "Number of used KV cache blocks", s.usedBlocks(), LABELS);
    t.gauge(
        p + "kv_cache_tokens_per_block",
        "Number of tokens per KV cache block",
        v.blockSize(),
        LABELS);
    return t.toString();
  }

  /**
   * The iteration statistics since the last call, as trtllm-serve's {@code /metrics} answers: an
   * array, empty when no engine step ran since the previous call. The simulator reports one entry
   * per call (the latest step), not one per step.
   */
  static String iterations(PodView v, boolean stepped) {
    ArrayNode list = OpenAiJson.MAPPER.createArrayNode();
    if (!stepped) {
      return list.toString();
    }
    PodSnapshot s = v.snapshot();
    ObjectNode o = list.addObject();
    o.put("cpuMemUsage", 0).put("gpuMemUsage", 0).put("pinnedMemUsage", 0);
    ObjectNode ifb = o.putObject("inflightBatchingStats");
    ifb.put("avgNumDecodedTokensPerIter", 1.0)
        .put("microBatchId", 0)
        .put("numContextRequests", 0)
        .put("numCtxTokens", 0)
        .put("numGenRequests", s.running())
        .put("numPausedRequests", 0)
        .put("numScheduledRequests", s.running());
    o.put("iter", s.counters().steps()).put("iterLatencyMS", 0.0);
    ObjectNode kv = o.putObject("kvCacheStats");
    kv.put("allocNewBlocks", 0)
        .put("allocTotalBlocks", s.usedBlocks())
        .put("cacheHitRate", hitRate(s.counters()))
        .put("freeNumBlocks", s.totalBlocks() - s.usedBlocks())
        .put("maxNumBlocks", s.totalBlocks())
        .put("tokensPerBlock", v.blockSize())
        .put("usedNumBlocks", s.usedBlocks());
    o.put("maxNumActiveRequests", v.maxNumSeqs())
        .put("newActiveRequestsQueueLatencyMS", 0.0)
        .put("numActiveRequests", s.running())
        .put("numCompletedRequests", 0)
        .put("numQueuedRequests", s.waiting())
        .put("timestamp", Instant.ofEpochMilli((long) (v.nowEpochSec() * 1000)).toString());
    return list.toString();
  }

  private static double hitRate(EngineCounters c) {
    return c.prefixQueryTokens() == 0 ? 0 : (double) c.prefixHitTokens() / c.prefixQueryTokens();
  }
}
