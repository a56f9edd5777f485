package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MetricsLocationTest {

  @Test
  void eachEngineHasItsDefaultPath() {
    assertThat(new ScrapeTarget("10.0.0.1:8000", Engine.VLLM).metricsUrl("http", null))
        .isEqualTo("http://10.0.0.1:8000/metrics");
    assertThat(new ScrapeTarget("10.0.0.1:8000", Engine.SGLANG).metricsUrl("http", null))
        .isEqualTo("http://10.0.0.1:8000/metrics");
    assertThat(new ScrapeTarget("10.0.0.1:8000", Engine.TRTLLM).metricsUrl("http", null))
        .isEqualTo("http://10.0.0.1:8000/prometheus/metrics");
  }

  @Test
  void aPoolsPathWinsOverTheGlobalOneWhichWinsOverTheEngines() {
    ScrapeTarget own =
        new ScrapeTarget("[fd00::1]:8000", Engine.TRTLLM, new MetricsLocation("/m", 0));
    ScrapeTarget plain = new ScrapeTarget("[fd00::1]:8000", Engine.TRTLLM);

    assertThat(own.metricsUrl("http", "/global")).isEqualTo("http://[fd00::1]:8000/m");
    assertThat(plain.metricsUrl("http", "/global")).isEqualTo("http://[fd00::1]:8000/global");
    assertThat(
            new ScrapeTarget("[fd00::1]:8000", Engine.VLLM, new MetricsLocation(null, 9400))
                .metricsUrl("http", null))
        .isEqualTo("http://[fd00::1]:9400/metrics");
  }

  @Test
  void badLocationsAreExplained() {
    assertThatThrownBy(() -> new MetricsLocation("metrics", 0))
        .hasMessage("metricsPath: 'metrics' (expected an absolute path such as /metrics)");
    assertThatThrownBy(() -> new MetricsLocation(null, 70000))
        .hasMessage("metricsPort: 70000 (expected 1..65535, or 0 for the engine's default)");
  }
}
