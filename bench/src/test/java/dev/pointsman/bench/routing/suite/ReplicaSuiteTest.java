package dev.pointsman.bench.routing.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.bench.routing.run.BenchRunner;
import dev.pointsman.bench.routing.run.Progress;
import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaSuiteTest {

  @Test
  void theSuiteRunsEachScenarioWithOneTwoAndFourReplicasIndependentAndShared() {
    List<Scenario> scenarios = Suites.get("replicas").scenarios();
    assertThat(scenarios).hasSize(15);
    assertThat(scenarios.get(1).name()).isEqualTo("s1-heterogeneous-replicas-2");
    assertThat(scenarios.get(2).name()).isEqualTo("s1-heterogeneous-replicas-2-shared");
    assertThat(scenarios.stream().map(s -> s.production().pickerReplicas()))
        .containsExactly(1, 2, 2, 4, 4, 1, 2, 2, 4, 4, 1, 2, 2, 4, 4);
    assertThat(scenarios.stream().map(s -> s.production().sharing()))
        .containsExactly(
            false, false, true, false, true, false, false, true, false, true, false, false, true,
            false, true);
    assertThatThrownBy(() -> Suites.get("nope"))
        .hasMessageContaining("'nope'")
        .hasMessageContaining("replicas");
  }

  private static Scenario tiny() {
    return Scenarios.parse(TINY, "tiny.yaml");
  }

  private static final String TINY =
      """
        name: tiny
        fleet: [{gpu: A10G, count: 2}]
        workload: [{kind: shared-prefix, groups: 3, systemTokens: 800, questionTokens: 50, outputTokens: 40}]
        loads: [0.5]
        durationSeconds: 20
        warmupSeconds: 5
        drainSeconds: 60
        """;

  @Test
  void replicatedRunsAreDeterministicAndTheSummarySetsThemSideBySide() {
    Scenario base = tiny();
    List<Scenario> instances = new ArrayList<>();
    for (int n : ReplicaSuite.REPLICAS) {
      instances.add(
          base.withProduction(
              "tiny" + ReplicaSuite.INFIX + n, base.production().withPickerReplicas(n)));
    }
    instances.add(
        base.withProduction(
            "tiny-again" + ReplicaSuite.INFIX + 2, base.production().withPickerReplicas(2)));
    List<ScenarioResult> results =
        new BenchRunner(List.of("pointsman"), 1, 300, Progress.disabled()).run(instances);
    RunResult two = results.get(1).runs().getFirst();
    RunResult again = results.get(3).runs().getFirst();
    assertThat(again.ttftSamples()).isEqualTo(two.ttftSamples());
    assertThat(again.perPodRequests()).isEqualTo(two.perPodRequests());
    assertThat(two.completed()).isPositive();

    String summary = new ReplicaSuite().summary(results.subList(0, 3));
    assertThat(summary).contains("## tiny").contains("| 1 replica | 2 replicas | 4 replicas |");
    String row =
        summary.lines().filter(l -> l.startsWith("| pointsman | 0.50 |")).findFirst().orElseThrow();
    assertThat(row.split("\\|")).hasSize(6);
    assertThat(summary).contains("| pointsman | knee |");
  }

  @Test
  void sharingReplicasKeepAtLeastTheIndependentPrefixHitRateAndShowSideBySide() {
    Scenario base = tiny();
    List<Scenario> instances =
        List.of(
            base.withProduction(
                "tiny" + ReplicaSuite.INFIX + 2, base.production().withPickerReplicas(2)),
            base.withProduction(
                "tiny" + ReplicaSuite.INFIX + 2 + ReplicaSuite.SHARED,
                base.production().withPickerReplicas(2).withSharing(true)));
    List<ScenarioResult> results =
        new BenchRunner(List.of("pointsman"), 1, 300, Progress.disabled()).run(instances);
    RunResult alone = results.get(0).runs().getFirst();
    RunResult shared = results.get(1).runs().getFirst();
    assertThat(shared.completed()).isPositive();
    // each group's prefix, learned by one replica, reaches the other 51 ms later instead of never
    assertThat(shared.prefixHitRate()).isGreaterThanOrEqualTo(alone.prefixHitRate());
    assertThat(shared.ttftSamples()).isNotEqualTo(alone.ttftSamples());

    String summary = new ReplicaSuite().summary(results);
    assertThat(summary).contains("| 2 replicas | 2 shared |").doesNotContain("## tiny-shared");
  }

  @Test
  void sharingNeedsTwoReplicas() {
    Scenario base = tiny();
    assertThatThrownBy(() -> base.production().withSharing(true))
        .hasMessageContaining("production.sharing")
        .hasMessageContaining("pickerReplicas >= 2");
    String yaml = TINY + "production: {pickerReplicas: 2, sharing: true}\n";
    assertThat(Scenarios.parse(yaml, "shared.yaml").production().sharing()).isTrue();
    assertThatThrownBy(
            () -> Scenarios.parse(yaml.replace("pickerReplicas: 2", "pickerReplicas: 1"), "x.yaml"))
        .hasMessageContaining("production.sharing");
    assertThat(base.production().sharing()).isFalse();
  }
}
