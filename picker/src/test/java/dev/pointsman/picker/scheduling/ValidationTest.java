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
        "0 | 0.8 | 1 | saturation.queueThreshold: 0 (expected >= 1)",
        "5 | 0   | 1 | saturation.kvThreshold: 0.0 (expected in (0, 1])",
        "5 | 1.5 | 1 | saturation.kvThreshold: 1.5 (expected in (0, 1])",
        "5 | NaN | 1 | saturation.kvThreshold: NaN (expected in (0, 1])",
        "5 | 0.8 | 0 | saturation.retryAfterSeconds: 0 (expected >= 1)",
      })
  void saturationRejects(int queue, double kv, int retry, String message) {
    assertThatThrownBy(() -> new Saturation(queue, kv, retry))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void saturationAcceptsFullKvThreshold() {
    assertThat(new Saturation(1, 1.0, 1).kvThreshold()).isEqualTo(1.0);
  }

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
    assertThatThrownBy(() -> new SpeedProfile("x", prefill, decode, budget))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @ParameterizedTest(name = "labels {0} -> {1} at {2} tok/s")
  @CsvSource(
      delimiter = '|',
      value = {
        "              |              | default | 9000",
        "H100-80       |              | H100-80 | 28000",
        "h100          |              | H100-80 | 28000",
        "L4            |              | L4      | 2000",
        "tpu-v5        |              | default | 9000",
        "H100-80       | 50000        | H100-80 | 50000",
        "L4            | fast         | L4      | 2000", // unparsable override ignored
        "L4            | -5           | L4      | 2000", // invalid override ignored
        "              | 12000        | default | 12000",
      })
  void speedProfileFromLabels(String gpu, String prefill, String name, double tokensPerSecond) {
    Map<String, String> labels = new java.util.HashMap<>();
    if (gpu != null) {
      labels.put(SpeedProfile.GPU_LABEL, gpu);
    }
    if (prefill != null) {
      labels.put(SpeedProfile.PREFILL_LABEL, prefill);
    }

    SpeedProfile p = SpeedProfile.of(new Endpoint("10.0.0.1:8000", "pool", labels));

    assertThat(p.name()).isEqualTo(name);
    assertThat(p.prefillTokensPerSecond()).isEqualTo(tokensPerSecond);
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
