package dev.pointsman.bench.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.run.Progress;
import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.LoraMix;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Adapters registered on some pods only (X4): pods that do not list an adapter refuse its requests,
 * as a model server answers 404. A policy that reads the listings fails nothing; one that does not
 * fails the requests it sends elsewhere.
 */
class AdapterPlacementTest {

  @Test
  void placementStripesEachAdapterOverDistinctPods() {
    LoraMix mix = new LoraMix(0.8, null, 24, 1.0, 3);
    List<Set<String>> placement = mix.placement(8);

    assertThat(placement).hasSize(8);
    assertThat(placement).allSatisfy(p -> assertThat(p).hasSize(9));
    Map<String, Integer> replicas = new HashMap<>();
    placement.forEach(p -> p.forEach(a -> replicas.merge(a, 1, Integer::sum)));
    assertThat(replicas).hasSize(24).allSatisfy((a, n) -> assertThat(n).isEqualTo(3));
    // the most popular adapters land on different pods
    assertThat(placement.get(0)).contains("adapter-0").doesNotContain("adapter-1");
    assertThat(new LoraMix(0.8, null, 24, 1.0, null).placement(8)).isNull();
    assertThat(new LoraMix(0.8, null, 24, 1.0, 8).placement(8)).isNull();
  }

  @Test
  void policiesThatReadTheListingFailNothingOthersFailWhatTheySendElsewhere() {
    Scenario x4 = Scenarios.load(Path.of("scenarios/extra/x4-lora-placement.yaml").toString());
    Scenario quick = x4.quickVersion();
    ScenarioResult result =
        BenchCommand.run(
                List.of(quick),
                List.of("round-robin", "pointsman", "greedy-lookahead"),
                true,
                2,
                Progress.disabled())
            .get(0);

    assertThat(result.runs()).hasSize(6);
    for (RunResult r : result.runs()) {
      if (r.policy().equals("round-robin")) {
        // 80% of requests name an adapter registered on 3 of 8 pods: half of all fail blind
        assertThat(r.failed()).as("round-robin at %s", r.load()).isGreaterThan(r.completed() / 2);
      } else {
        assertThat(r.failed()).as("%s at %s", r.policy(), r.load()).isZero();
        assertThat(r.completed()).isPositive();
      }
    }
  }
}
