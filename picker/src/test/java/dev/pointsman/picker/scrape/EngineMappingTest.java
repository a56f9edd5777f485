package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EngineMappingTest {

  private static Mapping map(Engine engine, MetricsMapper mapper, String text) {
    return mapper.map(engine.parser().parse(text).samples(), 42L);
  }

  private static Mapping map(Engine engine, String text) {
    return map(engine, engine.newMapper(), text);
  }

  @Test
  void vllmRecordedExposition() {
    Mapping mapping = map(Engine.VLLM, Resources.metrics("vllm-v0.10.txt"));
    EndpointMetrics m = mapping.metrics();

    assertThat(m.waitingRequests()).isEqualTo(3);
    assertThat(m.runningRequests()).isEqualTo(7);
    assertThat(m.kvCacheUsage()).isEqualTo(0.4237);
    assertThat(m.kvCapacityTokens()).isEqualTo(16L * 27118);
    assertThat(m.maxLoras()).isEqualTo(4);
    assertThat(m.runningAdapters()).containsExactlyInAnyOrder("sql-lora", "chat-lora");
    assertThat(m.waitingAdapters()).containsExactly("summarize-lora");
    assertThat(m.prefixCacheHitRate()).isNaN(); // first scrape: no previous counters
    assertThat(m.scrapedAtNanos()).isEqualTo(42L);
    assertThat(mapping.missing()).isEmpty();
  }

  @Test
  void vllmPrefixHitRateIsTheRatioOfCounterGrowthBetweenScrapes() {
    MetricsMapper mapper = Engine.VLLM.newMapper();
    String base = "vllm:num_requests_waiting 0\nvllm:num_requests_running 0\n";

    map(Engine.VLLM, mapper, base + counters(1000, 100));
    Mapping second = map(Engine.VLLM, mapper, base + counters(3000, 1100));
    Mapping idle = map(Engine.VLLM, mapper, base + counters(3000, 1100));
    Mapping reset = map(Engine.VLLM, mapper, base + counters(10, 5));
    Mapping afterReset = map(Engine.VLLM, mapper, base + counters(110, 30));

    assertThat(second.metrics().prefixCacheHitRate()).isEqualTo(0.5);
    assertThat(idle.metrics().prefixCacheHitRate()).isNaN();
    assertThat(reset.metrics().prefixCacheHitRate()).isNaN();
    assertThat(afterReset.metrics().prefixCacheHitRate()).isEqualTo(0.25);
    // counters that went backwards: a new engine process behind the address, reported once
    assertThat(second.restarted()).isFalse();
    assertThat(idle.restarted()).isFalse();
    assertThat(reset.restarted()).isTrue();
    assertThat(afterReset.restarted()).isFalse();
  }

  @Test
  void aRestartIsReportedOnlyWhenBothScrapesHadTheCounters() {
    MetricsMapper mapper = Engine.VLLM.newMapper();
    String base = "vllm:num_requests_waiting 0\nvllm:num_requests_running 0\n";

    Mapping first = map(Engine.VLLM, mapper, base + counters(5000, 100));
    Mapping without = map(Engine.VLLM, mapper, base);
    Mapping back = map(Engine.VLLM, mapper, base + counters(10, 5));

    assertThat(first.restarted()).isFalse();
    assertThat(without.restarted()).isFalse();
    assertThat(back.restarted()).isFalse();
  }

  private static String counters(long queries, long hits) {
    return "vllm:prefix_cache_queries_total{model_name=\"m\"} "
        + queries
        + "\nvllm:prefix_cache_hits_total{model_name=\"m\"} "
        + hits
        + "\n";
  }

  @Test
  void vllmSumsCountsAndAveragesUsageOverEnginesWithoutCapacityWithDeprecatedUsageFallback() {
    EndpointMetrics m = map(Engine.VLLM, Resources.metrics("vllm-two-series.txt")).metrics();

    assertThat(m.waitingRequests()).isEqualTo(5);
    assertThat(m.runningRequests()).isEqualTo(7);
    // no cache_config_info: engines deployed alike weigh the same
    assertThat(m.kvCacheUsage()).isEqualTo(0.5);
  }

  @Test
  void vllmWithoutLoraOrCacheConfigReportsUnknowns() {
    Mapping mapping =
        map(Engine.VLLM, "vllm:num_requests_waiting 1\nvllm:num_requests_running 2\n");

    assertThat(mapping.metrics().maxLoras()).isEqualTo(-1);
    assertThat(mapping.metrics().runningAdapters()).isEmpty();
    assertThat(mapping.metrics().kvCapacityTokens()).isEqualTo(-1);
    assertThat(mapping.metrics().kvCacheUsage()).isNaN();
    assertThat(mapping.missing())
        .containsExactlyInAnyOrder(Signal.KV_CACHE_USAGE, Signal.KV_CAPACITY, Signal.PREFIX_CACHE);
    assertThat(mapping.unusable()).isFalse();
  }

  @Test
  void vllmNewestLoraSeriesWinsAndEmptyListsAreEmptySets() {
    Mapping mapping =
        map(
            Engine.VLLM,
            """
            vllm:lora_requests_info{max_lora="2",running_lora_adapters="a",waiting_lora_adapters=""} 100
            vllm:lora_requests_info{max_lora="2",running_lora_adapters="",waiting_lora_adapters=""} 300
            vllm:lora_requests_info{max_lora="2",running_lora_adapters="b,c",waiting_lora_adapters="d"} NaN
            """);

    assertThat(mapping.metrics().runningAdapters()).isEmpty();
    assertThat(mapping.metrics().waitingAdapters()).isEmpty();
    assertThat(mapping.metrics().maxLoras()).isEqualTo(2);
  }

  @Test
  void negativeOrNaNCountsAreUnknownAndNeverThrow() {
    Mapping mapping =
        map(
            Engine.VLLM,
            "vllm:num_requests_waiting -3\nvllm:num_requests_running NaN\n"
                + "vllm:kv_cache_usage_perc 1.7\n"
                + "vllm:cache_config_info{block_size=\"x\",num_gpu_blocks=\"None\"} 1\n");

    assertThat(mapping.metrics().waitingRequests()).isZero();
    assertThat(mapping.metrics().runningRequests()).isZero();
    assertThat(mapping.metrics().kvCacheUsage()).isEqualTo(1.0);
    assertThat(mapping.metrics().kvCapacityTokens()).isEqualTo(-1);
    assertThat(mapping.missing())
        .contains(Signal.WAITING_REQUESTS, Signal.RUNNING_REQUESTS, Signal.KV_CAPACITY);
  }

  @Test
  void emptyOrForeignExpositionIsUnusable() {
    assertThat(map(Engine.VLLM, "").unusable()).isTrue();
    assertThat(map(Engine.VLLM, Resources.metrics("sglang.txt")).unusable()).isTrue();
    assertThat(map(Engine.SGLANG, "<html>not metrics</html>").unusable()).isTrue();
  }

  @Test
  void sglangRecordedExposition() {
    Mapping mapping = map(Engine.SGLANG, Resources.metrics("sglang.txt"));
    EndpointMetrics m = mapping.metrics();

    assertThat(m.waitingRequests()).isEqualTo(4);
    assertThat(m.runningRequests()).isEqualTo(12);
    assertThat(m.kvCacheUsage()).isEqualTo(0.61);
    assertThat(m.prefixCacheHitRate()).isEqualTo(0.35);
    assertThat(m.kvCapacityTokens()).isEqualTo(421904);
    assertThat(m.maxLoras()).isEqualTo(-1);
    assertThat(mapping.missing()).isEmpty();
  }

  @Test
  void sglangWithoutCacheConfigHasUnknownCapacity() {
    Mapping mapping = map(Engine.SGLANG, "sglang:num_queue_reqs 0\nsglang:num_running_reqs 1\n");

    assertThat(mapping.metrics().kvCapacityTokens()).isEqualTo(-1);
    assertThat(mapping.metrics().prefixCacheHitRate()).isNaN();
    assertThat(mapping.missing())
        .containsExactlyInAnyOrder(Signal.KV_CACHE_USAGE, Signal.KV_CAPACITY, Signal.PREFIX_CACHE);
  }

  @Test
  void trtllmRecordedExposition() {
    Mapping mapping = map(Engine.TRTLLM, Resources.metrics("trtllm.txt"));
    EndpointMetrics m = mapping.metrics();

    assertThat(m.waitingRequests()).isEqualTo(2);
    assertThat(m.runningRequests()).isEqualTo(9);
    assertThat(m.kvCacheUsage()).isEqualTo(0.125);
    assertThat(m.kvCapacityTokens()).isEqualTo(32L * 8192);
    assertThat(m.prefixCacheHitRate()).isNaN();
    // the page has no block-reuse counters
    assertThat(mapping.missing()).containsExactly(Signal.PREFIX_CACHE);
  }

  @Test
  void trtllmPrefixHitRateIsTheRatioOfReusedBlocksBetweenScrapes() {
    MetricsMapper mapper = Engine.TRTLLM.newMapper();
    String page = Resources.metrics("trtllm.txt");

    map(Engine.TRTLLM, mapper, page + reuse(100, 300));
    Mapping second = map(Engine.TRTLLM, mapper, page + reuse(400, 400));

    assertThat(second.metrics().prefixCacheHitRate()).isEqualTo(0.75);
    assertThat(second.missing()).isEmpty();
  }

  private static String reuse(long reused, long missed) {
    return "trtllm_kv_cache_reused_blocks_total{model_name=\"m\"} "
        + reused
        + "\ntrtllm_kv_cache_missed_blocks_total{model_name=\"m\"} "
        + missed
        + "\n";
  }

  @Test
  void configNamesRoundTripAndBadNamesAreExplained() {
    for (Engine e : Engine.values()) {
      assertThat(Engine.fromConfigName(e.configName())).isSameAs(e);
    }
    assertThatThrownBy(() -> Engine.fromConfigName("tgi"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("engine: 'tgi' (expected one of vllm, sglang, trtllm, triton-tensorrt-llm)");
    assertThat(Engine.VLLM.metricNames()).contains("vllm:lora_requests_info");
    assertThat(Set.of(Engine.values())).hasSize(4);
  }
}
