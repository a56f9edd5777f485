package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.sim.engine.EngineCounters;
import dev.pointsman.sim.engine.PodSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The deployment shapes real engines show in their metrics: SGLang's priority and per-rank series,
 * vLLM's data-parallel engines. Rendered from a fixed engine state, so every value is known.
 */
class EngineShapesTest {
  static final String MODEL = "m";
  // 7 waiting, 10 running, 300 of 1000 blocks used
  static final PodSnapshot STATE =
      new PodSnapshot(
          0,
          7,
          10,
          0,
          300,
          1000,
          Set.of(),
          Set.of(),
          Set.of(),
          new EngineCounters(100, 40, 0, 0, 50, 21, 0, 0, 9, 0));

  static PodView view(EngineOptions options) {
    return new PodView(
        MODEL,
        4,
        256,
        16,
        STATE,
        new LatencyHistogram(LatencyHistogram.TTFT_BOUNDS),
        new LatencyHistogram(LatencyHistogram.E2E_BOUNDS),
        2000,
        1000,
        0,
        options);
  }

  static Map<Map<String, String>, Double> series(String text, String name) {
    Map<Map<String, String>, Double> out = new java.util.HashMap<>();
    for (String line : text.split("\n")) {
      if (line.startsWith(name + "{")) {
        Exposition one = Exposition.parse(line);
        Map<String, String> labels = one.family(name).series().iterator().next();
        out.put(labels, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    return out;
  }

  @Test
  void sglangWithPrioritiesWritesTheTotalUnderAnEmptyPriorityAndABreakdownThatSumsToIt() {
    String text =
        SglangMetrics.render(view(new EngineOptions(null, null, null, List.of(0, 5, 9), null)));

    for (String name : List.of("sglang:num_running_reqs", "sglang:num_queue_reqs")) {
      Map<Map<String, String>, Double> s = series(text, name);
      double total =
          s.entrySet().stream()
              .filter(e -> e.getKey().get("priority").isEmpty())
              .mapToDouble(Map.Entry::getValue)
              .sum();
      double breakdown =
          s.entrySet().stream()
              .filter(e -> !e.getKey().get("priority").isEmpty())
              .mapToDouble(Map.Entry::getValue)
              .sum();
      assertThat(s).hasSize(4);
      assertThat(total).as(name).isEqualTo(name.contains("running") ? 10 : 7);
      assertThat(breakdown).as(name).isEqualTo(total);
    }
    // every scheduler series carries the priority label, the total's value being ""
    assertThat(series(text, "sglang:token_usage"))
        .containsOnlyKeys(
            Map.of(
                "engine_type", "unified",
                "model_name", MODEL,
                "pp_rank", "0",
                "priority", "",
                "tp_rank", "0"));
  }

  @Test
  void sglangWithMetricsForAllSchedulersRepeatsEachRanksSeries() {
    String text = SglangMetrics.render(view(new EngineOptions(null, 2, true, null, null)));

    Map<Map<String, String>, Double> running = series(text, "sglang:num_running_reqs");
    assertThat(running.keySet())
        .extracting(l -> l.get("tp_rank"))
        .containsExactlyInAnyOrder("0", "1");
    assertThat(running.values()).containsOnly(10.0);
    assertThat(series(text, "sglang:max_total_num_tokens").values()).containsOnly(16000.0);
    // the tokenizer's counters are not per rank
    assertThat(series(text, "sglang:prompt_tokens_total")).hasSize(1);
  }

  @Test
  void sglangWithoutAllSchedulerMetricsReportsRankZeroOnly() {
    String text = SglangMetrics.render(view(new EngineOptions(null, 2, null, null, null)));

    assertThat(series(text, "sglang:num_running_reqs").keySet())
        .extracting(l -> l.get("tp_rank"))
        .containsExactly("0");
  }

  @Test
  void sglangCapacityIsTokensInPagesOfOne() {
    String text = SglangMetrics.render(view(EngineOptions.NONE));

    assertThat(series(text, "sglang:max_total_num_tokens").values()).containsExactly(16000.0);
    assertThat(series(text, "sglang:page_size").values()).containsExactly(1.0);
    assertThat(series(text, "sglang:num_pages").values()).containsExactly(16000.0);
    assertThat(series(text, "sglang:num_used_tokens").values()).containsExactly(4800.0);
    assertThat(text).doesNotContain("cache_config_info");
  }

  @Test
  void vllmDataParallelReportsEngineSharesThatSumToThePod() {
    String text = VllmMetrics.render(view(new EngineOptions(2, null, null, null, null)));

    Map<Map<String, String>, Double> running = series(text, "vllm:num_requests_running");
    assertThat(running.keySet())
        .extracting(l -> l.get("engine"))
        .containsExactlyInAnyOrder("0", "1");
    assertThat(running.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(10);
    assertThat(series(text, "vllm:num_requests_waiting").values())
        .containsExactlyInAnyOrder(4.0, 3.0);
    assertThat(
            series(text, "vllm:cache_config_info").keySet().stream()
                .mapToInt(l -> Integer.parseInt(l.get("num_gpu_blocks")))
                .sum())
        .isEqualTo(1000);
    assertThat(series(text, "vllm:prompt_tokens_total").values())
        .containsExactlyInAnyOrder(25.0, 25.0);
    assertThat(series(text, "vllm:engine_sleep_state")).hasSize(6);
    assertThat(series(text, "vllm:lora_requests_info")).hasSize(1);
  }

  @Test
  void vllmSleepStateShowsTheLevel() {
    PodView v = view(EngineOptions.NONE);
    PodView asleep =
        new PodView(
            v.model(),
            v.maxLoras(),
            v.maxNumSeqs(),
            v.blockSize(),
            v.snapshot(),
            v.ttft(),
            v.e2e(),
            v.nowEpochSec(),
            v.startEpochSec(),
            2,
            v.options());

    Map<Map<String, String>, Double> s =
        series(VllmMetrics.render(asleep), "vllm:engine_sleep_state");

    assertThat(s)
        .containsEntry(Map.of("engine", "0", "model_name", MODEL, "sleep_state", "awake"), 0.0)
        .containsEntry(
            Map.of("engine", "0", "model_name", MODEL, "sleep_state", "weights_offloaded"), 0.0)
        .containsEntry(
            Map.of("engine", "0", "model_name", MODEL, "sleep_state", "discard_all"), 1.0);
  }

  @Test
  void trtllmCurrentReleaseWritesTheLoadCapacityAndBlockReuseSeries() {
    String text = TrtllmMetrics.prometheus(view(EngineOptions.NONE));

    assertThat(series(text, "trtllm_num_requests_running").values()).containsExactly(10.0);
    assertThat(series(text, "trtllm_num_requests_waiting").values()).containsExactly(7.0);
    assertThat(series(text, "trtllm_kv_cache_utilization").values()).containsExactly(0.3);
    assertThat(series(text, "trtllm_kv_cache_tokens_per_block").values()).containsExactly(16.0);
    assertThat(series(text, "trtllm_kv_cache_max_blocks").values()).containsExactly(1000.0);
    // 40 of 100 prefix tokens hit, in 16-token blocks: the counters the hit rate is read from
    assertThat(series(text, "trtllm_kv_cache_reused_blocks_total").values()).containsExactly(2.0);
    assertThat(series(text, "trtllm_kv_cache_missed_blocks_total").values()).containsExactly(4.0);
    String legacy =
        TrtllmMetrics.prometheus(view(new EngineOptions(null, null, null, null, "1.1")));
    assertThat(legacy)
        .doesNotContain("trtllm_", "num_requests")
        .contains("e2e_request_latency_seconds");
  }

  @Test
  void tritonReportsRequestsAndBlocksAsKinds() {
    String text = TritonMetrics.render(view(EngineOptions.NONE));

    Map<Map<String, String>, Double> requests = series(text, "nv_trt_llm_request_metrics");
    assertThat(requests)
        .containsEntry(
            Map.of("model", "tensorrt_llm", "request_type", "active", "version", "1"), 17.0)
        .containsEntry(
            Map.of("model", "tensorrt_llm", "request_type", "scheduled", "version", "1"), 10.0);
    assertThat(series(text, "nv_trt_llm_kv_cache_block_metrics"))
        .containsEntry(
            Map.of("kv_cache_block_type", "used", "model", "tensorrt_llm", "version", "1"), 300.0)
        .containsEntry(
            Map.of("kv_cache_block_type", "max", "model", "tensorrt_llm", "version", "1"), 1000.0);
  }
}
