package dev.pointsman.sim.engine;

import static dev.pointsman.sim.engine.Harness.config;
import static dev.pointsman.sim.engine.Harness.request;
import static dev.pointsman.sim.engine.Harness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The measured anchors of simulator.md, each within ±15%. */
class CalibrationTest {

  @ParameterizedTest
  @CsvSource({"H100-80, 6.5", "A100-40, 13.3"})
  void decodeStepAtBatchOneMatchesMeasurements(String gpu, double expectedMs) {
    // given one short request generating 101 tokens
    Map<Long, RequestResult> results = run(config(gpu), List.of(request(1, 0, 64, 101)));

    // then its time per output token is one decode step
    assertThat(results.get(1L).tpotMs()).isCloseTo(expectedMs, withPercentage(15));
  }

  @Test
  void aggregateDecodeThroughputGrowsAtLeastFiveFoldFromOneToEight() {
    double tpot1 = meanTpot(1);
    double tpot8 = meanTpot(8);

    double throughputGain = (8 / tpot8) / (1 / tpot1);

    assertThat(throughputGain).isGreaterThanOrEqualTo(5.0);
  }

  @Test
  void longPrefillOnH100TakesPromptOverPrefillRate() {
    Map<Long, RequestResult> results = run(config("H100-80"), List.of(request(1, 0, 8192, 2)));

    assertThat(results.get(1L).ttftMs()).isCloseTo(8192 / 28.0, withPercentage(15));
  }

  @Test
  void l4PrefillIsTenToFifteenTimesSlowerThanH100() {
    double h100 = run(config("H100-80"), List.of(request(1, 0, 8192, 2))).get(1L).ttftMs();
    double l4 = run(config("L4"), List.of(request(1, 0, 8192, 2))).get(1L).ttftMs();

    assertThat(l4 / h100).isBetween(10.0, 15.0);
  }

  @Test
  void apiOverheadIsAddedToTtft() {
    EngineConfig c = config("H100-80").withApiOverheadMs(10);
    double with = run(c, List.of(request(1, 0, 100, 2))).get(1L).ttftMs();
    double without = run(config("H100-80"), List.of(request(1, 0, 100, 2))).get(1L).ttftMs();

    assertThat(with - without).isCloseTo(10, within(1e-9));
  }

  private static double meanTpot(int concurrency) {
    List<SimRequest> requests = new ArrayList<>();
    for (int i = 0; i < concurrency; i++) {
      requests.add(request(i, 0, 256, 201));
    }
    return run(config("H100-80"), requests).values().stream()
        .mapToDouble(RequestResult::tpotMs)
        .average()
        .orElseThrow();
  }
}
