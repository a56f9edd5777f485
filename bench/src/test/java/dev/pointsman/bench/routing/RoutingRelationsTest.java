package dev.pointsman.bench.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.run.Progress;
import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Relations on the shipped S1 and S5 in {@code --quick} mode, on three seeds. Each holds either by
 * construction (what the policy is, whatever the numbers) or with a margin of an order of magnitude
 * or more on every seed, so it does not depend on which seed is run; each says which. Nothing here
 * ranks close policies against each other: that is for the pods-needed suite with its intervals.
 * The greedy lookahead is not asserted to be the lowest anywhere (it is not a bound). Virtual time
 * and seeded streams: the figures are the same on every machine and every run.
 */
class RoutingRelationsTest {
  static final List<Long> SEEDS = List.of(1L, 2L, 3L);

  /** How far below round-robin's p99 TTFT a load-aware policy stays on S1 and S5 at 50% load. */
  static final double MARGIN = 0.1;

  static ScenarioResult s1;
  static ScenarioResult s5;

  @BeforeAll
  static void run() {
    Scenario quickS1 = Scenarios.load("s1").quickVersion().withSeeds(SEEDS);
    Scenario quickS5 = Scenarios.load("s5").quickVersion().withSeeds(SEEDS);
    s1 =
        BenchCommand.run(
                List.of(quickS1),
                List.of(
                    "random",
                    "round-robin",
                    "weighted-round-robin",
                    "weighted-least-request",
                    "pointsman",
                    "greedy-lookahead"),
                true,
                2,
                Progress.disabled())
            .get(0);
    s5 =
        BenchCommand.run(
                List.of(quickS5),
                List.of("round-robin", "gie-default", "pointsman"),
                true,
                2,
                Progress.disabled())
            .get(0);
  }

  // By construction: round-robin gives every pod 1/N of the requests, so it saturates where the
  // slowest pod does, at N × (slowest pod's capacity) of the fleet's; on S1 that is under half.
  @Test
  void roundRobinSaturatesWhereItsSlowestPodDoes() {
    int pods = s1.definition().fleet().stream().mapToInt(PodGroup::count).sum();
    double slowest = Collections.min(s1.capacityPerProfile().values());
    double slowestShare = pods * slowest / s1.fleetCapacityReqPerS();
    assertThat(slowestShare).isLessThan(0.5);
    double firstLoadPastIt =
        s1.definition().loads().stream().filter(l -> l >= slowestShare).findFirst().orElse(1.0);
    assertThat(s1.knee().get("round-robin"))
        .as("the slowest pods saturate at %.3f of fleet capacity", slowestShare)
        .isLessThanOrEqualTo(firstLoadPastIt);
    for (RunResult r : s1.at("round-robin", 0.5)) {
      int[] sent = r.perPodRequests();
      int min = java.util.Arrays.stream(sent).min().orElseThrow();
      int max = java.util.Arrays.stream(sent).max().orElseThrow();
      assertThat(max - min).as("seed %d: %s", r.seed(), sent).isLessThanOrEqualTo(1);
    }
  }

  // By construction: weighted round-robin sends each pod a share of the requests proportional to
  // its static weight, and the weights are the measured capacities rounded to integers of at most
  // 128 (an L4 at 9.5 becomes 10): every pod's share is within half a percentage point of its
  // share of the fleet's capacity, on every seed.
  @Test
  void weightedRoundRobinSendsEachPodItsCapacityShare() {
    double[] capacity = perPodCapacity(s1);
    double fleet = java.util.Arrays.stream(capacity).sum();
    for (RunResult r : s1.at("weighted-round-robin", 0.5)) {
      int[] sent = r.perPodRequests();
      double total = java.util.Arrays.stream(sent).sum();
      for (int i = 0; i < sent.length; i++) {
        assertThat(sent[i] / total)
            .as("seed %d pod %d", r.seed(), i)
            .isCloseTo(capacity[i] / fleet, org.assertj.core.data.Offset.offset(0.005));
      }
    }
  }

  // With margin on every seed: at 50% of S1's capacity round-robin's L4s get 1/8 of the traffic,
  // about 2.7× their capacity, so its p99 is tens of seconds; policies that weigh pod speed stay
  // under a second. A factor of 10 holds by two orders of magnitude in the quick runs.
  @Test
  void speedAwarePoliciesStayFarBelowRoundRobinOnS1AtHalfLoad() {
    for (long seed : SEEDS) {
      double rr = p99(s1, "round-robin", 0.5, seed);
      assertThat(p99(s1, "random", 0.5, seed)).as("seed %d", seed).isGreaterThan(MARGIN * rr);
      for (String p : List.of("weighted-round-robin", "pointsman", "greedy-lookahead")) {
        assertThat(p99(s1, p, 0.5, seed)).as("%s seed %d", p, seed).isLessThan(MARGIN * rr);
      }
    }
  }

  // With margin on every seed: on S5 at 50% round-robin overloads the L4s as on S1, and the
  // production policy's mean and p99 TTFT are far below a tenth of its own.
  @Test
  void pointsmanStaysFarBelowRoundRobinOnS5AtHalfLoad() {
    for (long seed : SEEDS) {
      RunResult rr = one(s5, "round-robin", 0.5, seed);
      RunResult pm = one(s5, "pointsman", 0.5, seed);
      assertThat(pm.ttftMs().mean()).as("seed %d", seed).isLessThan(MARGIN * rr.ttftMs().mean());
      assertThat(pm.ttftMs().p99()).as("seed %d", seed).isLessThan(MARGIN * rr.ttftMs().p99());
    }
  }

  // By construction: no shipped scenario has sheddable requests, and only sheddable ones are shed.
  @Test
  void nothingIsShed() {
    for (ScenarioResult s : List.of(s1, s5)) {
      for (RunResult r : s.runs()) {
        assertThat(r.shed()).as(r.policy()).isZero();
      }
    }
  }

  // By construction: every (policy, load, seed) ran and measured requests; only policies that
  // predict TTFT report a prediction error.
  @Test
  void everyRunMeasuredRequests() {
    assertThat(s1.runs()).hasSize(6 * s1.definition().loads().size() * SEEDS.size());
    for (RunResult r : s1.runs()) {
      assertThat(r.completed()).as(r.policy() + " @" + r.load()).isPositive();
      assertThat(r.throughputTokPerS()).isPositive();
    }
    assertThat(one(s1, "pointsman", 0.5, 1).predictorMape()).isNotNull();
    assertThat(one(s1, "round-robin", 0.5, 1).predictorMape()).isNull();
    assertThat(one(s1, "pointsman", 0.5, 1).tpotPredictorMape()).isNotNull();
    assertThat(one(s1, "round-robin", 0.5, 1).tpotPredictorMape()).isNull();
  }

  private static double[] perPodCapacity(ScenarioResult r) {
    List<Double> out = new java.util.ArrayList<>();
    for (PodGroup g : r.definition().fleet()) {
      for (int i = 0; i < g.count(); i++) {
        out.add(r.capacityPerProfile().get(g.gpu()));
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static double p99(ScenarioResult r, String policy, double load, long seed) {
    return one(r, policy, load, seed).ttftMs().p99();
  }

  private static RunResult one(ScenarioResult r, String policy, double load, long seed) {
    List<RunResult> at = r.at(policy, load).stream().filter(x -> x.seed() == seed).toList();
    assertThat(at).as(policy + " @" + load + " seed " + seed).hasSize(1);
    return at.get(0);
  }
}
