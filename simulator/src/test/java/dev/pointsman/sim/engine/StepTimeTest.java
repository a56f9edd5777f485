package dev.pointsman.sim.engine;

import static dev.pointsman.sim.engine.Harness.config;
import static dev.pointsman.sim.engine.Harness.request;
import static dev.pointsman.sim.engine.Harness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Relations the step-time model must keep (its constants are checked against measured rows in
 * {@link LinearFitTest}).
 */
class StepTimeTest {
  private static final GpuProfiles PROFILES = GpuProfiles.builtIn();

  @Test
  void aggregateDecodeThroughputGrowsAtLeastFiveFoldFromOneToEight() {
    double tpot1 = meanTpot(1);
    double tpot8 = meanTpot(8);

    double throughputGain = (8 / tpot8) / (1 / tpot1);

    assertThat(throughputGain).isGreaterThanOrEqualTo(5.0);
  }

  @Test
  void apiOverheadIsAddedToTtft() {
    EngineConfig c = config("H100-80").withApiOverheadMs(10);
    double with = run(c, List.of(request(1, 0, 100, 2))).get(1L).ttftMs();
    double without = run(config("H100-80"), List.of(request(1, 0, 100, 2))).get(1L).ttftMs();

    assertThat(with - without).isCloseTo(10, within(1e-9));
  }

  @ParameterizedTest
  @ValueSource(strings = {"H100-80", "A100-80", "L4"})
  void aPrefillChunkCostsMoreAfterALongContext(String gpu) {
    GpuProfile p = PROFILES.get(gpu);
    long chunk = 512;

    double fresh = p.costs().stepMs(chunk, 0, chunk, 0, pairs(0, chunk), 1, 0);
    double after8k = p.costs().stepMs(chunk, 0, 8000 + chunk, 0, pairs(8000, chunk), 1, 0);

    assertThat(after8k / fresh).isGreaterThan(1.1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"H100-80", "A100-80", "L4"})
  void aDecodeStepCostsMoreWithALongerContext(String gpu) {
    GpuProfile p = PROFILES.get(gpu);

    double short512 = p.costs().stepMs(0, 8, 8 * 512, 8 * 512, 0, 8, 0);
    double long8k = p.costs().stepMs(0, 8, 8 * 8192, 8 * 8192, 0, 8, 0);

    assertThat(long8k).isGreaterThan(short512 * 1.1);
  }

  @Test
  void theTwo24GbCardsHoldTheSameKvTokens() {
    assertThat(PROFILES.get("L4").kvTokens()).isEqualTo(PROFILES.get("A10G").kvTokens());
  }

  @Test
  void tensorParallelPodsPayForTheirAllReduce() {
    GpuProfile p = PROFILES.get("H100-80", "llama-3-70b");
    long n = 2048;

    double step = p.costs().stepMs(n, 0, n, 0, pairs(0, n), 1, 0);
    double withoutAllReduce = step - p.costs().allReduceMs() - p.costs().allReduceMsPerToken() * n;

    assertThat(p.tensorParallel()).isEqualTo(4);
    assertThat(withoutAllReduce).isLessThan(step);
    assertThat(PROFILES.get("H100-80").costs().allReduceMs()).isZero();
  }

  @Test
  void aSeventyBillionPodDecodesSlowerThanAnEightBillionPodOnTheSameGpuType() {
    for (String gpu : List.of("H100-80", "A100-80")) {
      double small = ProfileTable.decodeStepMs(PROFILES.get(gpu), 1, 512);
      double large = ProfileTable.decodeStepMs(PROFILES.get(gpu, "llama-3-70b"), 1, 512);

      assertThat(large).as(gpu).isGreaterThan(small);
    }
  }

  private static long pairs(long cached, long n) {
    return n * cached + n * (n + 1) / 2;
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
