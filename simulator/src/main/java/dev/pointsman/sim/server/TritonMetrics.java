package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.PodSnapshot;

/**
 * Triton Inference Server with the TensorRT-LLM backend: the {@code nv_trt_llm_*} gauges of its
 * metrics page (the backend README's example, in {@code ../shared/engine-captures/}), one family
 * per kind with the kind as a label, and {@code model="tensorrt_llm"}, {@code version="1"}.
 * Requests: {@code active} is every request the batcher holds, {@code scheduled} those in the
 * current batch, {@code max} the batch cap. Real Triton serves metrics on its own port (8002); the
 * simulator serves them at the pod's {@code /metrics}.
 */
final class TritonMetrics {
  private static final String[] MODEL = {"model", "tensorrt_llm", "version", "1"};

  private TritonMetrics() {}

  static String render(PodView v) {
    PodSnapshot s = v.snapshot();
    PrometheusText t = new PrometheusText();
    kinds(
        t,
        "nv_trt_llm_request_metrics",
        "TRT LLM request metrics",
        "request_type",
        "context",
        0,
        "scheduled",
        s.running(),
        "max",
        v.maxNumSeqs(),
        "active",
        s.running() + s.waiting());
    kinds(
        t,
        "nv_trt_llm_runtime_memory_metrics",
        "TRT LLM runtime memory metrics",
        "memory_type",
        "pinned",
        0,
        "gpu",
        0,
        "cpu",
        0);
    kinds(
        t,
        "nv_trt_llm_kv_cache_block_metrics",
        "TRT LLM KV cache block metrics",
        "kv_cache_block_type",
        "tokens_per",
        v.blockSize(),
        "used",
        s.usedBlocks(),
        "free",
        s.totalBlocks() - s.usedBlocks(),
        "max",
        s.totalBlocks());
    kinds(
        t,
        "nv_trt_llm_inflight_batcher_metrics",
        "TRT LLM inflight_batcher-specific metrics",
        "inflight_batcher_specific_metric",
        "micro_batch_id",
        0,
        "generation_requests",
        s.running(),
        "total_context_tokens",
        0);
    kinds(
        t,
        "nv_trt_llm_general_metrics",
        "General TRT LLM metrics",
        "general_type",
        "iteration_counter",
        s.counters().steps(),
        "timestamp",
        (long) v.nowEpochSec());
    return t.toString();
  }

  /** One gauge family, a series per kind: {@code kindsAndValues} alternates names and values. */
  private static void kinds(
      PrometheusText t, String name, String help, String label, Object... kindsAndValues) {
    t.family(name, "gauge", help);
    for (int i = 0; i < kindsAndValues.length; i += 2) {
      t.sample(
          name,
          ((Number) kindsAndValues[i + 1]).doubleValue(),
          PrometheusText.with(MODEL, label, (String) kindsAndValues[i]));
    }
  }
}
