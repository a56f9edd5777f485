package dev.pointsman.bench.routing.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.report.Markdown;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run on pods that offload KV blocks to CPU memory: the engines' counters of what they loaded
 * from their CPU tiers reach the run's result and the report, and a fleet without a tier loads
 * nothing.
 */
class OffloadRunTest {
  @TempDir Path dir;

  /**
   * Two L4s (about 43k tokens of KV each) and 120k tokens of documents: more than the GPUs hold,
   * less than the GPUs and 8 GiB of CPU tier each (65k tokens) hold together.
   */
  private Scenario scenario(String offload) throws Exception {
    Path file = dir.resolve("offload.yaml");
    Files.writeString(
        file,
        """
        name: offload
        fleet: [{gpu: L4, count: 2%s}]
        workload: [{kind: rag, documents: 60, documentTokens: 2000, questionTokens: 50, zipf: 0.5}]
        loads: [0.5]
        durationSeconds: 120
        warmupSeconds: 60
        drainSeconds: 120
        world: {base: clean}
        """
            .formatted(offload));
    return Scenarios.load(file.toString());
  }

  private static String report(Scenario s, Capacity capacity, RunResult run) {
    StringBuilder sb = new StringBuilder();
    List<String> policies = List.of(run.policy());
    Markdown.scenario(sb, ScenarioResult.of(s, capacity, policies, List.of(run)), List.of(), "###");
    return sb.toString();
  }

  @Test
  void whatThePodsLoadedFromTheirCpuTiersIsMeasuredAndReported() throws Exception {
    Scenario tiered = scenario(", kvOffloadGiB: 8");
    Scenario plain = scenario("");
    Capacity capacity = Capacity.calibrate(plain, 300, 5);

    RunResult withTier = PolicyRun.run(tiered, capacity, "pointsman-kv-events", 0.5, 1);
    RunResult without = PolicyRun.run(plain, capacity, "pointsman-kv-events", 0.5, 1);

    assertThat(withTier.offloadHitRate()).isPositive();
    assertThat(withTier.prefixHitRate()).isGreaterThan(without.prefixHitRate());
    assertThat(without.offloadHitRate()).isZero();
    assertThat(report(tiered, capacity, withTier))
        .contains("prompt tokens the pods loaded from their CPU tiers");
    assertThat(report(plain, capacity, without)).doesNotContain("CPU tiers");
  }
}
