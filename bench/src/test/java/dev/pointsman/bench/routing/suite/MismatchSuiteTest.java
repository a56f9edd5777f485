package dev.pointsman.bench.routing.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.run.BenchRunner;
import dev.pointsman.bench.routing.run.Progress;
import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class MismatchSuiteTest {
  @Test
  void theSummaryCellIsTheMeanOverTheSeedsNotTheFirstSeed() {
    Scenario twoSeeds =
        Scenarios.parse(
            """
            name: tiny
            fleet: [{gpu: A10G, count: 2}]
            workload: [{kind: sharegpt, weight: 1}]
            loads: [0.6]
            durationSeconds: 20
            warmupSeconds: 5
            drainSeconds: 60
            seeds: [1, 2]
            """,
            "tiny.yaml");
    ScenarioResult r =
        new BenchRunner(List.of("pointsman"), 1, 300, Progress.disabled())
            .run(List.of(twoSeeds))
            .getFirst();
    List<RunResult> runs = r.runs();
    assertThat(runs).hasSize(2);
    double first = runs.get(0).ttftMs().p99();
    double second = runs.get(1).ttftMs().p99();
    assertThat(Math.round(first)).isNotEqualTo(Math.round(second));

    String cell = MismatchSuite.p99(r, "pointsman", 0.6);

    assertThat(cell).isEqualTo(String.format(Locale.ROOT, " %.0f |", (first + second) / 2));
    assertThat(new MismatchSuite().summary(List.of(r))).contains("mean over the seeds");
  }
}
