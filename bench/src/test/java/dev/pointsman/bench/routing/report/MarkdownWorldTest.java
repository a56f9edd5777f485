package dev.pointsman.bench.routing.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import org.junit.jupiter.api.Test;

class MarkdownWorldTest {
  @Test
  void theReportStatesTheWorldEachScenarioRanIn() {
    Scenario s1 = Scenarios.load("s1");

    assertThat(Markdown.world(s1))
        .isEqualTo(
            "step noise σ 0.1; stragglers 2 per pod-hour, 2–3× for 30 s; restarts 0.25 per"
                + " pod-hour, 60 s down; scrape lag median 5 ms (σ 1), 0.1% failing, 500 ms"
                + " timeout");
    assertThat(Markdown.world(s1.inCleanWorld()))
        .isEqualTo("clean pods; scrapes applied at their tick, never failing");
  }

  @Test
  void theReportMarksEachScenarioTrainOrTest() {
    assertThat(Markdown.set(Scenarios.load("s1"))).startsWith("train");
    assertThat(Markdown.set(Scenarios.load("scenarios/extra/x5-llama-70b-heterogeneous.yaml")))
        .startsWith("test");
  }
}
