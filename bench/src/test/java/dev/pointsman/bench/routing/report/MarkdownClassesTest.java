package dev.pointsman.bench.routing.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.run.Capacity;
import dev.pointsman.bench.routing.run.FlowClasses;
import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.RunResults;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownClassesTest {
  private static final Scenario S1 = Scenarios.load("s1");

  private static ScenarioResult result(boolean withClasses) {
    List<RunResult> runs = new ArrayList<>();
    for (double load : S1.loads()) {
      for (long seed = 1; seed <= 2; seed++) {
        List<FlowClasses> classes =
            withClasses
                ? List.of(
                    new FlowClasses("priority=-1", 100, 30 + (int) seed, 0, 800, 2000 * seed, 0.2),
                    new FlowClasses("priority=1", 100, 0, 0, 300, 500, 1.0))
                : List.of();
        runs.add(RunResults.ttft("p", load, seed, 400, classes));
      }
    }
    return ScenarioResult.of(S1, Capacity.calibrate(S1, 50, 1), List.of("p"), runs);
  }

  @Test
  void aScenarioWithClassesGetsTheirTableAtTheHeadlineLoad() {
    StringBuilder sb = new StringBuilder();
    Markdown.classes(sb, result(true));

    assertThat(sb.toString())
        .contains("TTFT by class of traffic @")
        // p99 the mean over the seeds (2,000 and 4,000), shed summed (31 + 32 of 200)
        .contains("| p | priority=-1 | 3,000 | 20% | 63 of 200 |")
        .contains("| p | priority=1 | 500 | 100% | 0 of 200 |");
  }

  @Test
  void aScenarioWithoutClassesGetsNoTable() {
    StringBuilder sb = new StringBuilder();
    Markdown.classes(sb, result(false));

    assertThat(sb).isEmpty();
  }
}
