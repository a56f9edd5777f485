package dev.pointsman.bench.routing.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioResultTest {
  private static final List<String> POLICIES = List.of("round-robin", "x", "greedy-lookahead");

  private static ScenarioResult result(double rr, double x, double lookahead) {
    Scenario s1 = Scenarios.load("s1");
    double low = s1.loads().get(0);
    // every load over the SLO for round-robin, so the gap is read at the lowest load
    List<RunResult> runs = new java.util.ArrayList<>();
    for (double load : s1.loads()) {
      runs.add(RunResults.ttft("round-robin", load, 1, load == low ? rr : 1e6));
      runs.add(RunResults.ttft("x", load, 1, x));
      runs.add(RunResults.ttft("greedy-lookahead", load, 1, lookahead));
    }
    return ScenarioResult.of(s1, Capacity.calibrate(s1, 50, 1), POLICIES, runs);
  }

  @Test
  void theCapturedGapIsReportedOnlyWhereTheGapIsAtLeastHalfOfRoundRobins() {
    // round-robin 10 s, the lookahead 1 s: a gap of 90% of round-robin's p99
    ScenarioResult wide = result(10_000, 5_500, 1_000);
    assertThat(wide.lookaheadGapCaptured().get("x")).isCloseTo(0.5, within());
    // round-robin 1,000 ms, the lookahead 900 ms: x at 800 ms would read "200%"
    ScenarioResult narrow = result(1_000, 800, 900);
    assertThat(narrow.lookaheadGapCaptured()).isEmpty();
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-9);
  }
}
