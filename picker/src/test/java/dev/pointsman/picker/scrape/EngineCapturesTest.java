package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import org.junit.jupiter.api.Test;

/**
 * The mappers fed real engines' pages ({@code src/test/resources/engine-captures}, sources in its
 * {@code sources.md}). Where a finding needs a shape the captures lack (a second data-parallel
 * engine, priority series), the test adds the lines to the capture and says what it added.
 */
class EngineCapturesTest {

  private static Mapping map(Engine engine, MetricsMapper mapper, String text) {
    return mapper.map(engine.parser().parse(text).samples(), 42L);
  }

  private static Mapping map(Engine engine, String text) {
    return map(engine, engine.newMapper(), text);
  }

  // --- TensorRT-LLM: trtllm-serve 1.1 exports five request metrics and no load gauge

  @Test
  void trtllmServeOneOnePageIsRecognisedWithEveryLoadSignalMissing() {
    Mapping m =
        map(
            Engine.TRTLLM,
            Resources.capture("trtllm-serve-aibrix2004-prometheus-metrics-excerpt.prom"));

    assertThat(m.unusable()).isFalse();
    assertThat(m.missing())
        .contains(
            Signal.WAITING_REQUESTS,
            Signal.RUNNING_REQUESTS,
            Signal.KV_CACHE_USAGE,
            Signal.KV_CAPACITY,
            Signal.PREFIX_CACHE);
    assertThat(m.metrics().waitingRequests()).isZero();
    assertThat(m.metrics().kvCapacityTokens()).isEqualTo(-1);
  }

  @Test
  void trtllmServeJsonIterationStatsAreNotAnExposition() {
    assertThat(
            map(Engine.TRTLLM, Resources.capture("trtllm-serve-aibrix2004-metrics-json.txt"))
                .unusable())
        .isTrue();
    assertThat(
            map(Engine.TRTLLM, Resources.capture("trtllm-serve-docs-metrics-endpoint-json.txt"))
                .unusable())
        .isTrue();
  }

  // --- SGLang

  private static final String SGLANG = "sglang-0.4-docs-production-metrics.prom";

  @Test
  void sglangDocsPageReadsItsLoadAndReportsItsCapacityMissing() {
    Mapping m = map(Engine.SGLANG, Resources.capture(SGLANG));
    EndpointMetrics e = m.metrics();

    assertThat(e.waitingRequests()).isEqualTo(2826);
    assertThat(e.runningRequests()).isEqualTo(162);
    assertThat(e.kvCacheUsage()).isEqualTo(0.28);
    assertThat(e.prefixCacheHitRate()).isEqualTo(0.007507552643049313);
    assertThat(e.kvCapacityTokens()).isEqualTo(-1);
    assertThat(m.missing()).containsExactly(Signal.KV_CAPACITY);
  }

  @Test
  void sglangCapacityComesFromMaxTotalNumTokens() {
    // current SGLang's capacity gauge, added to the docs page (which predates it)
    String page =
        Resources.capture(SGLANG)
            + "sglang:max_total_num_tokens{model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 442368.0\n";

    Mapping m = map(Engine.SGLANG, page);

    assertThat(m.metrics().kvCapacityTokens()).isEqualTo(442368);
    assertThat(m.missing()).isEmpty();
  }

  @Test
  void sglangCapacityComesFromPageSizeTimesNumPages() {
    String page =
        Resources.capture(SGLANG)
            + "sglang:page_size{model_name=\"m\"} 16.0\nsglang:num_pages{model_name=\"m\"} 27648.0\n";

    assertThat(map(Engine.SGLANG, page).metrics().kvCapacityTokens()).isEqualTo(16L * 27648);
  }

  @Test
  void sglangWithPrioritySchedulingCountsTheTotalNotTotalPlusBreakdown() {
    // with priority scheduling SGLang writes the total under priority="" and one series per
    // priority
    String page =
        Resources.capture(SGLANG)
            .replace(
                "sglang:num_running_reqs{model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 162.0",
                "sglang:num_running_reqs{model_name=\"m\",priority=\"\"} 10.0\n"
                    + "sglang:num_running_reqs{model_name=\"m\",priority=\"0\"} 4.0\n"
                    + "sglang:num_running_reqs{model_name=\"m\",priority=\"1\"} 6.0")
            .replace(
                "sglang:num_queue_reqs{model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} 2826.0",
                "sglang:num_queue_reqs{model_name=\"m\",priority=\"\"} 3.0\n"
                    + "sglang:num_queue_reqs{model_name=\"m\",priority=\"5\"} 3.0");

    EndpointMetrics m = map(Engine.SGLANG, page).metrics();

    assertThat(m.runningRequests()).isEqualTo(10);
    assertThat(m.waitingRequests()).isEqualTo(3);
  }

  @Test
  void sglangTensorParallelRanksCountOnceAndDataParallelRanksAdd() {
    // metrics for all schedulers: two data-parallel ranks of two tensor-parallel ranks each
    StringBuilder page =
        new StringBuilder(
            Resources.capture(SGLANG)
                .replaceAll("(?m)^sglang:(num_running_reqs|num_queue_reqs)\\{.*\\n", ""));
    for (int dp = 0; dp < 2; dp++) {
      for (int tp = 0; tp < 2; tp++) {
        String labels = "{dp_rank=\"" + dp + "\",model_name=\"m\",tp_rank=\"" + tp + "\"}";
        page.append("sglang:num_running_reqs")
            .append(labels)
            .append(' ')
            .append(5 + dp)
            .append('\n');
        page.append("sglang:num_queue_reqs").append(labels).append(' ').append(1 + dp).append('\n');
        page.append("sglang:max_total_num_tokens").append(labels).append(" 100000\n");
      }
    }

    EndpointMetrics m = map(Engine.SGLANG, page.toString()).metrics();

    assertThat(m.runningRequests()).isEqualTo(5 + 6);
    assertThat(m.waitingRequests()).isEqualTo(1 + 2);
    assertThat(m.kvCapacityTokens()).isEqualTo(2 * 100000);
  }

  // --- vLLM

  @Test
  void vllmZeroPointEightGpuPrefixCountersAreAccepted() {
    // the 0.8 capture declares vllm:gpu_prefix_cache_queries_total and is cut before its values;
    // two scrapes of it with both counters' values appended
    String page = Resources.capture("vllm-0.8-v1-prodstack318-excerpt.prom");
    MetricsMapper mapper = Engine.VLLM.newMapper();
    String m = "{model_name=\"Qwen/Qwen2.5-Coder-32B-Instruct\"}";

    map(Engine.VLLM, mapper, page + counters08(m, 100, 20));
    Mapping second = map(Engine.VLLM, mapper, page + counters08(m, 300, 120));

    assertThat(second.metrics().prefixCacheHitRate()).isEqualTo(0.5);
    assertThat(second.missing()).doesNotContain(Signal.PREFIX_CACHE);
  }

  private static String counters08(String labels, long queries, long hits) {
    return "vllm:gpu_prefix_cache_queries_total"
        + labels
        + " "
        + queries
        + ".0\n"
        + "# TYPE vllm:gpu_prefix_cache_hits_total counter\n"
        + "vllm:gpu_prefix_cache_hits_total"
        + labels
        + " "
        + hits
        + ".0\n";
  }

  @Test
  void vllmV0HitRateGaugeIsAccepted() {
    // the V0 capture runs with prefix caching off (-1); the same page with it on
    String page =
        Resources.capture("vllm-0.7-v0-aibrix-runtime.prom")
            .replace(
                "vllm:gpu_prefix_cache_hit_rate{model_name=\"Qwen/Qwen2.5-Coder-1.5B-Instruct\"} -1.0",
                "vllm:gpu_prefix_cache_hit_rate{model_name=\"Qwen/Qwen2.5-Coder-1.5B-Instruct\"} 0.42");

    Mapping on = map(Engine.VLLM, page);
    Mapping off = map(Engine.VLLM, Resources.capture("vllm-0.7-v0-aibrix-runtime.prom"));

    assertThat(on.metrics().prefixCacheHitRate()).isEqualTo(0.42);
    assertThat(on.missing()).doesNotContain(Signal.PREFIX_CACHE);
    assertThat(off.metrics().prefixCacheHitRate()).isNaN();
    assertThat(off.missing()).contains(Signal.PREFIX_CACHE);
  }

  @Test
  void vllmV0PageReadsItsLoadAndCapacity() {
    Mapping m = map(Engine.VLLM, Resources.capture("vllm-0.7-v0-aibrix-runtime.prom"));

    assertThat(m.metrics().kvCapacityTokens()).isEqualTo(16L * 81767);
    assertThat(m.metrics().kvCacheUsage()).isZero();
    assertThat(m.metrics().maxLoras()).isZero();
    assertThat(m.missing()).containsExactly(Signal.PREFIX_CACHE);
  }

  @Test
  void vllmDataParallelCapacityIsSummedOverEngines() {
    // the 0.11 cache_config_info line, and the same for a second data-parallel engine
    String one = Resources.capture("vllm-0.11.0-cache-config-info-line.prom");
    String two =
        one
            + one.lines()
                .filter(l -> l.startsWith("vllm:"))
                .findFirst()
                .orElseThrow()
                .replace("engine=\"0\"", "engine=\"1\"")
            + "\n"
            + "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3.0\n"
            + "vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 4.0\n";

    assertThat(map(Engine.VLLM, one).metrics().kvCapacityTokens()).isEqualTo(16L * 9271);
    Mapping pod = map(Engine.VLLM, two);
    assertThat(pod.metrics().kvCapacityTokens()).isEqualTo(2 * 16L * 9271);
    assertThat(pod.metrics().runningRequests()).isEqualTo(7);
  }

  @Test
  void vllmDataParallelUsageIsTheShareOfThePodsCapacityInUse() {
    // engine 0 as captured (16 × 9271 tokens) at 10%, engine 1 with a third of its blocks at 70%
    String line =
        Resources.capture("vllm-0.11.0-cache-config-info-line.prom")
            .lines()
            .filter(l -> l.startsWith("vllm:"))
            .findFirst()
            .orElseThrow();
    String page =
        line
            + "\n"
            + line.replace("engine=\"0\"", "engine=\"1\"")
                .replace("num_gpu_blocks=\"9271\"", "num_gpu_blocks=\"3090\"")
            + "\n"
            + "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.1\n"
            + "vllm:kv_cache_usage_perc{engine=\"1\",model_name=\"m\"} 0.7\n";

    EndpointMetrics m = map(Engine.VLLM, page).metrics();

    assertThat(m.kvCapacityTokens()).isEqualTo(16L * (9271 + 3090));
    // used tokens over capacity: (0.1 × 9271 + 0.7 × 3090) / (9271 + 3090), not the 0.7 maximum
    assertThat(m.kvCacheUsage()).isCloseTo((0.1 * 9271 + 0.7 * 3090) / 12361, within(1e-9));
  }

  @Test
  void vllmCurrentV1PageReadsItsLoadAndCounters() {
    MetricsMapper mapper = Engine.VLLM.newMapper();
    Mapping m =
        map(Engine.VLLM, mapper, Resources.capture("vllm-v1-2026-04-rh-workshop-head40.prom"));

    assertThat(m.metrics().waitingRequests()).isZero();
    assertThat(m.metrics().runningRequests()).isZero();
    assertThat(m.metrics().kvCacheUsage()).isZero();
    // the first 40 lines hold no cache_config_info
    assertThat(m.missing()).containsExactly(Signal.KV_CAPACITY);
  }

  @Test
  void vllmLoraLineOfZeroPointTwentyNineIsRead() {
    EndpointMetrics m =
        map(Engine.VLLM, Resources.capture("vllm-0.29.0-lora-requests-info-line.prom")).metrics();

    assertThat(m.maxLoras()).isEqualTo(2);
    assertThat(m.runningAdapters()).containsExactly("alpaca");
    assertThat(m.waitingAdapters()).containsExactly("alpaca");
  }
}
