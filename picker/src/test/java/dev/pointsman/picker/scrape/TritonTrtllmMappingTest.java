package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import org.junit.jupiter.api.Test;

class TritonTrtllmMappingTest {

  private static Mapping map(String text) {
    Engine e = Engine.TRITON_TRTLLM;
    return e.newMapper().map(e.parser().parse(text).samples(), 7L);
  }

  @Test
  void readmeSampleMapsRequestsAndKvBlocks() {
    // 23.11-era backend: no request_type="waiting", no kv_cache_block_type="fraction"
    Mapping m = map(Resources.capture("triton-trtllm-backend-readme-metrics.prom"));
    EndpointMetrics e = m.metrics();

    assertThat(m.unusable()).isFalse();
    assertThat(e.runningRequests()).isEqualTo(1); // scheduled
    assertThat(e.waitingRequests()).isZero(); // active 0 − scheduled 1, at least 0
    assertThat(e.kvCacheUsage()).isEqualTo(1.0 / 6239); // used / max
    assertThat(e.kvCapacityTokens()).isEqualTo(64L * 6239); // tokens_per × max
    assertThat(e.maxLoras()).isEqualTo(-1);
    assertThat(m.missing()).containsExactly(Signal.PREFIX_CACHE);
  }

  @Test
  void newerBackendsWaitingAndFractionAreReadDirectly() {
    Mapping m =
        map(
            """
            nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="waiting",version="1"} 3
            nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="scheduled",version="1"} 4
            nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="active",version="1"} 9
            nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="fraction",model="tensorrt_llm",version="1"} 0.55
            nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="used",model="tensorrt_llm",version="1"} 10
            nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max",model="tensorrt_llm",version="1"} 100
            """);

    assertThat(m.metrics().waitingRequests()).isEqualTo(3);
    assertThat(m.metrics().runningRequests()).isEqualTo(4);
    assertThat(m.metrics().kvCacheUsage()).isEqualTo(0.55);
    assertThat(m.missing()).contains(Signal.KV_CAPACITY, Signal.PREFIX_CACHE);
  }

  @Test
  void activeWithoutScheduledLeavesBothCountsUnknown() {
    Mapping m =
        map("nv_trt_llm_request_metrics{model=\"t\",request_type=\"active\",version=\"1\"} 5\n");

    assertThat(m.missing())
        .contains(Signal.WAITING_REQUESTS, Signal.RUNNING_REQUESTS, Signal.KV_CACHE_USAGE);
  }

  @Test
  void tritonServesMetricsOnItsMetricsPort() {
    ScrapeTarget t = new ScrapeTarget("10.0.0.5:8000", Engine.TRITON_TRTLLM);

    assertThat(t.metricsUrl("http", null)).isEqualTo("http://10.0.0.5:8002/metrics");
    assertThat(
            new ScrapeTarget("10.0.0.5:8000", Engine.TRITON_TRTLLM, new MetricsLocation(null, 9102))
                .metricsUrl("http", null))
        .isEqualTo("http://10.0.0.5:9102/metrics");
  }
}
