package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Self-validating records of the scheduling library: Saturation and SpeedProfile. */
class ValidationTest {

  @ParameterizedTest(name = "{0} {1} {2}: {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0    | 0.01 | 1 | prefillTokensPerSecond: 0.0 (expected > 0)",
        "NaN  | 0.01 | 1 | prefillTokensPerSecond: NaN (expected > 0)",
        "1000 | -1   | 1 | decodeStepSeconds: -1.0 (expected > 0)",
        "1000 | 0.01 | 0 | tokenBudget: 0 (expected >= 1)",
      })
  void speedProfileRejects(double prefill, double decode, int budget, String message) {
    assertThatThrownBy(() -> new SpeedProfile("x", prefill, decode, budget, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @ParameterizedTest(name = "labels {0} {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "                      |       | neutral",
        "H100-80               |       | H100-SXM5-80GB",
        "h100                  |       | H100-SXM5-80GB",
        "L4                    |       | L4",
        "tpu-v5                |       | neutral",
        "                      | 50000 | neutral",
        "L4                    | fast  | L4", // unparsable override ignored
        "L4                    | -5    | L4", // invalid override ignored
      })
  void speedProfileFromLabels(String gpu, String prefill, String name) {
    Map<String, String> labels = new java.util.HashMap<>();
    if (gpu != null) {
      labels.put(SpeedProfile.GPU_LABEL, gpu);
    }
    if (prefill != null) {
      labels.put(SpeedProfile.PREFILL_LABEL, prefill);
    }

    SpeedProfile p = SpeedProfile.of(new Endpoint("10.0.0.1:8000", "pool", labels));

    assertThat(p.name()).isEqualTo(name);
    SpeedProfile plain = SpeedProfile.of(new Endpoint("10.0.0.1:8000", "pool", Map.of()));
    if ("50000".equals(prefill)) {
      assertThat(p.prefillTokensPerSecond()).isEqualTo(50_000);
    } else if (gpu != null && !"neutral".equals(name)) {
      assertThat(p.prefillTokensPerSecond()).isNotEqualTo(plain.prefillTokensPerSecond());
    }
  }

  @Test
  void endpointAndMetricsReject() {
    assertThatThrownBy(() -> new Endpoint("nohost", "pool"))
        .hasMessage("endpoint address: 'nohost' (expected host:port)");
    assertThatThrownBy(() -> Fixtures.metrics(-1, 0, 0))
        .hasMessage("waitingRequests: -1 (expected >= 0)");
    assertThatThrownBy(() -> SchedulerTest.request("", -1, false, null))
        .hasMessage("promptTokens: -1 (expected >= 0)");
  }
}
