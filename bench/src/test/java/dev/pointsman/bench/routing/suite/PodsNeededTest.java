package dev.pointsman.bench.routing.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.run.Progress;
import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class PodsNeededTest {
  private final GpuPrices prices =
      GpuPricesTest.of(
          new GpuPrices.Price("H100-80", "a", 8.0, 1),
          new GpuPrices.Price("A100-80", "b", 4.0, 1),
          new GpuPrices.Price("L4", "c", 1.0, 1));

  private PodsNeeded.Scenario s1() {
    return new PodsNeeded.Scenario(
        Scenarios.load("s1"),
        new FleetScaling(Scenarios.load("s1").fleet()),
        90,
        "test",
        32,
        10,
        new ConcurrentHashMap<>(),
        null);
  }

  @Test
  void theSuiteIsRegisteredAndSizesS1ToS5WithTheBaselinesAndTheRoundRobinFloor() {
    Suite suite = Suites.get("pods-needed");
    assertThat(suite.scenarios())
        .extracting(dev.pointsman.bench.routing.scenario.Scenario::name)
        .containsExactly(
            "s1-heterogeneous", "s2-bursty", "s3-shared-prefix", "s4-multi-lora", "s5-mixed");
    assertThat(suite.policies())
        .contains("round-robin", "weighted-least-request", "dynamo-kv", "pointsman")
        .doesNotContain("greedy-lookahead");
  }

  @Test
  void eachPolicyAndSeedIsSearchedOnTheFakeRunner() {
    // a fake runner: pointsman needs 5 pods, the baseline 7 or 8 depending on the seed
    Map<String, Integer> needs = Map.of("pointsman", 5, "weighted-least-request", 7);
    PodsNeeded.Evaluator fake =
        (plan, policy, seed, pods, doubled) ->
            new PodsNeeded.Verdict(pods >= needs.get(policy) + (seed == 3 ? 1 : 0), 100, 1);
    List<String> policies = List.of("weighted-least-request", "pointsman");
    List<PodsNeeded.Outcome> outcomes =
        new PodsNeeded(fake, 2, Progress.disabled())
            .run(List.of(s1()), policies, List.of(1L, 2L, 3L));
    assertThat(outcomes).hasSize(6);
    assertThat(outcomes)
        .extracting(o -> o.policy() + "/" + o.seed() + "=" + o.pods().getAsInt())
        .containsExactly(
            "weighted-least-request/1=7",
            "weighted-least-request/2=7",
            "weighted-least-request/3=8",
            "pointsman/1=5",
            "pointsman/2=5",
            "pointsman/3=6");
    String md =
        PodsNeededReport.markdown(
            List.of(s1()), policies, List.of(1L, 2L, 3L), outcomes, prices, true);
    assertThat(md).contains("| pointsman | 5, 5, 6 | 5.3 [3.9, 6.8] | 6 |");
    // the fake does not depend on the run length: every figure stands at the doubled window
    assertThat(outcomes).noneMatch(PodsNeeded.Outcome::moved);
    assertThat(md).contains("| 5, 5, 6 | ");
    // pointsman's interval [3.9, 6.8] overlaps the baseline's [5.9, 8.8]: no win is claimed
    assertThat(md).contains("(weighted-least-request): **no separation**");
  }

  @Test
  void aFleetThatNeverPassesIsReportedWithWhyItsLargestFailed() {
    PodsNeeded.Evaluator never =
        (plan, policy, seed, pods, doubled) -> new PodsNeeded.Verdict(false, 5000, 0.99);
    List<PodsNeeded.Outcome> outcomes =
        new PodsNeeded(never, 1, Progress.disabled()).run(List.of(s1()), List.of("x"), List.of(1L));
    assertThat(outcomes.get(0).pods()).isEmpty();
    assertThat(outcomes.get(0).largestFailed()).isEqualTo(32);
    String md =
        PodsNeededReport.markdown(
            List.of(s1()), List.of("x"), List.of(1L), outcomes, prices, false);
    assertThat(md).contains("| x | > 32 | – (some seed needs > 32) | > 32 |");
    assertThat(md).contains("x seed 1 at 32 pods: p99 TTFT 5,000 ms, 99.0% served");
  }

  @Test
  void aWinOrLossNeedsSeparatedIntervals() {
    PodsNeededReport.Row five = row("pointsman", 5, 5, 5);
    PodsNeededReport.Row seven = row("b", 7, 7, 7);
    PodsNeededReport.Row wide = row("c", 4, 6, 8);
    PodsNeededReport.Row failed = row("d", 5, -1, 5);
    PodsNeededReport.Row never = row("e", -1, -1, -1);
    assertThat(PodsNeededReport.verdict(five, seven)).isEqualTo("win");
    assertThat(PodsNeededReport.verdict(seven, five)).isEqualTo("loss");
    assertThat(PodsNeededReport.verdict(five, wide)).isEqualTo("no separation");
    // a seed that needs more than the largest fleet makes the interval unbounded above
    assertThat(PodsNeededReport.verdict(five, failed)).isEqualTo("no separation");
    assertThat(PodsNeededReport.verdict(failed, seven)).isEqualTo("no separation");
    // every seed needing more than the largest fleet (32) is above any interval under it
    assertThat(PodsNeededReport.verdict(seven, never)).isEqualTo("win");
  }

  private static PodsNeededReport.Row row(String policy, int... pods) {
    return new PodsNeededReport.Row(policy, pods, new double[pods.length], 32);
  }

  @Test
  void decodingIsReportedOnTheFleetEachSeedNeedsNotTheLargestTried() {
    // TPOT grows as the fleet shrinks: 100 ms ÷ pods; goodput 1 on 7 pods or more, else 0.5
    PodsNeeded.Evaluator fake =
        (plan, policy, seed, pods, doubled) ->
            new PodsNeeded.Verdict(
                pods >= (seed == 2 ? 6 : 5),
                100,
                1,
                100.0 / pods,
                200.0 / pods,
                pods >= 7 ? 1 : 0.5);
    List<PodsNeeded.Outcome> outcomes =
        new PodsNeeded(fake, 1, Progress.disabled())
            .run(List.of(s1()), List.of("pointsman"), List.of(1L, 2L));

    assertThat(outcomes)
        .extracting(o -> o.atPods().tpotP50Ms())
        .containsExactly(100.0 / 5, 100.0 / 6);
    String md =
        PodsNeededReport.markdown(
            List.of(s1()), List.of("pointsman"), List.of(1L, 2L), outcomes, prices, true);
    assertThat(md)
        .contains("TPOT ≤ 50 ms) as a share of the rate")
        .contains("| pointsman | 20.0, 16.7 | 40.0, 33.3 | 50.0%, 50.0% |");
  }

  @Test
  void aPolicyThatNeverPassesHasNoDecodingRow() {
    PodsNeeded.Evaluator never =
        (plan, policy, seed, pods, doubled) -> new PodsNeeded.Verdict(false, 5000, 1, 10, 20, 0);
    List<PodsNeeded.Outcome> outcomes =
        new PodsNeeded(never, 1, Progress.disabled())
            .run(List.of(s1()), List.of("pointsman"), List.of(1L));

    assertThat(outcomes.get(0).atPods()).isNull();
    assertThat(
            PodsNeededReport.markdown(
                List.of(s1()), List.of("pointsman"), List.of(1L), outcomes, prices, true))
        .doesNotContain("Decoding on the fleet");
  }

  @Test
  void theCostColumnsPriceTheFleetOfEachSeed() {
    // S1's fleet of 8 pods: 2×H100 + 2×A100 + 4×L4 = 2·8 + 2·4 + 4·1 = 28 $/h; of 3 pods 13 $/h
    PodsNeeded.Scenario plan = s1();
    List<PodsNeeded.Outcome> outcomes =
        List.of(
            new PodsNeeded.Outcome(
                plan.scenario().name(), "p", 1, java.util.OptionalInt.of(8), 1, null, null, 8),
            new PodsNeeded.Outcome(
                plan.scenario().name(), "p", 2, java.util.OptionalInt.of(3), 1, null, null, 3));
    PodsNeededReport.Row row = PodsNeededReport.row(plan, "p", outcomes, prices);
    assertThat(row.costs()).containsExactly(28.0, 13.0);
    assertThat(prices.fleetPerHour(List.of(new PodGroup("L4", 3, null, null, null)))).isEqualTo(3);
  }

  @Test
  void aFigureThatDoublingTheWindowMovesByMoreThanTenPercentRejectsTheVerdict() {
    // pointsman needs 5 pods in the scenario's window but 7 in a doubled one (a slow overload the
    // short run hides): 7 > 5 + 1, so its figure is moved; the baseline's 10 stands at 10 or 11
    PodsNeeded.Evaluator fake =
        (plan, policy, seed, pods, doubled) -> {
          int need =
              policy.equals("pointsman") ? (doubled ? 7 : 5) : (doubled && seed == 2 ? 11 : 10);
          return new PodsNeeded.Verdict(pods >= need, 100, 1);
        };
    List<String> policies = List.of("weighted-least-request", "pointsman");
    List<PodsNeeded.Outcome> outcomes =
        new PodsNeeded(fake, 1, Progress.disabled())
            .run(List.of(s1()), policies, List.of(1L, 2L, 3L));
    assertThat(outcomes)
        .extracting(o -> o.policy() + "/" + o.seed() + "=" + o.doubledPods() + "," + o.moved())
        .containsExactly(
            "weighted-least-request/1=10,false",
            "weighted-least-request/2=11,false",
            "weighted-least-request/3=10,false",
            "pointsman/1=-1,true",
            "pointsman/2=-1,true",
            "pointsman/3=-1,true");
    String md =
        PodsNeededReport.markdown(
            List.of(s1()), policies, List.of(1L, 2L, 3L), outcomes, prices, false);
    // without the check this would be a win (5 against 10 on every seed)
    assertThat(md).contains("**rejected**: doubling the measured window moved pointsman's figure");
    assertThat(md).doesNotContain("**win**");
    assertThat(md).contains("> 6 (moved), > 6 (moved), > 6 (moved)");
    assertThat(md).contains("| 10, 11, 10 | ");
  }

  @Test
  void latencyIsComparedOnTheScenariosOwnFleetAndRejectedWhereDoublingMovesItsRatio() {
    // on the own fleet (8 pods): the baseline's p99 is 1,800-2,000 ms, pointsman's 400-440 ms;
    // in the doubled window the baseline's seed 3 moves by the drift factor
    List<String> policies = List.of("weighted-least-request", "pointsman");
    List<Long> seeds = List.of(1L, 2L, 3L);

    List<PodsNeeded.Outcome> outcomes = latencyOutcomes(policies, seeds, 1.0);
    // then: every outcome carries its own-fleet runs, the doubled one run even where the search
    // did not need it (pointsman's figure is 5 pods, so its doubled check never ran 8)
    assertThat(outcomes)
        .extracting(
            o -> o.policy() + "=" + o.onOwnFleet().p99Ms() + "/" + o.onOwnFleetDoubled().p99Ms())
        .containsExactly(
            "weighted-least-request=1800.0/1800.0",
            "weighted-least-request=1900.0/1900.0",
            "weighted-least-request=2000.0/2000.0",
            "pointsman=400.0/400.0",
            "pointsman=420.0/420.0",
            "pointsman=440.0/440.0");
    String md = PodsNeededReport.markdown(List.of(s1()), policies, seeds, outcomes, prices, false);
    assertThat(md)
        .contains("| weighted-least-request | 1,800, 1,900, 2,000 | 1,900 [1,652, 2,148] |")
        .contains(
            "pointsman against weighted-least-request: 420 against 1,900 ms (ratio 0.22; doubled"
                + " window 420 against 1,900 ms, ratio 0.22): **lower**")
        .doesNotContain("Seeds whose own p99 moved");

    // a baseline past the SLO on its own fleet on one seed: no latency figure is read there
    PodsNeeded.Evaluator overloaded =
        (plan, policy, seed, pods, doubled) -> {
          PodsNeeded.Verdict v = latencyFake(policy, seed, pods, doubled, 1.0);
          return policy.equals("pointsman") || seed != 2
              ? v
              : new PodsNeeded.Verdict(v.passes(), 2_500, 1);
        };
    String past =
        PodsNeededReport.markdown(
            List.of(s1()),
            policies,
            seeds,
            new PodsNeeded(overloaded, 1, Progress.disabled()).run(List.of(s1()), policies, seeds),
            prices,
            false);
    assertThat(past)
        .contains("**not read**: weighted-least-request misses the 2,000 ms SLO")
        .doesNotContain("**lower**");

    // one seed moves 20% while the ratio of the means moves 7% (0.22 -> 0.21): the figure stands,
    // and the seed that moved is named beside it
    String seedMoved =
        PodsNeededReport.markdown(
            List.of(s1()), policies, seeds, latencyOutcomes(policies, seeds, 1.2), prices, false);
    assertThat(seedMoved)
        .contains("ratio 0.22; doubled window 420 against 2,033 ms, ratio 0.21): **lower**")
        .contains(
            "Seeds whose own p99 moved by more than 10% at twice the window:"
                + " weighted-least-request seed 3 2,000 → 2,400 ms.");

    // the seed moves 60%, the ratio 17% (0.22 -> 0.18): rejected
    String rejected =
        PodsNeededReport.markdown(
            List.of(s1()), policies, seeds, latencyOutcomes(policies, seeds, 1.6), prices, false);
    assertThat(rejected)
        .contains(
            "ratio 0.18): **rejected**: doubling the measured window moved the ratio by more"
                + " than 10%.")
        .doesNotContain("**lower**");
  }

  @Test
  void aLowerVerdictNeedsTheIntervalsApartInTheDoubledWindowToo() {
    PodsNeededReport.Latency product =
        new PodsNeededReport.Latency(
            "pointsman", new double[] {400, 420, 440}, new double[] {300, 420, 620});
    PodsNeededReport.Latency apart =
        new PodsNeededReport.Latency(
            "b", new double[] {1_800, 1_900, 2_000}, new double[] {1_800, 1_900, 2_000});
    PodsNeededReport.Latency close =
        new PodsNeededReport.Latency(
            "b", new double[] {1_800, 1_900, 2_000}, new double[] {1_000, 1_900, 2_800});
    List<Long> seeds = List.of(1L, 2L, 3L);
    assertThat(PodsNeededReport.latencyVerdict(product, apart, 2_000, seeds))
        .contains("**lower**")
        .contains("pointsman seed 1 400 → 300 ms, pointsman seed 3 440 → 620 ms.");
    // the same means, so the same ratio; the doubled window's intervals overlap
    assertThat(PodsNeededReport.latencyVerdict(product, close, 2_000, seeds))
        .contains("**no separation**")
        .contains("b seed 1 1,800 → 1,000 ms");
    assertThat(PodsNeededReport.latencyVerdict(apart, product, 2_000, seeds))
        .contains("**higher**");
  }

  private List<PodsNeeded.Outcome> latencyOutcomes(
      List<String> policies, List<Long> seeds, double drift) {
    PodsNeeded.Evaluator evaluator =
        (plan, policy, seed, pods, doubled) -> latencyFake(policy, seed, pods, doubled, drift);
    return new PodsNeeded(evaluator, 1, Progress.disabled()).run(List.of(s1()), policies, seeds);
  }

  /**
   * Baseline: 7 pods needed, p99 1,700 + 100·seed on 8; pointsman: 5 pods, 380 + 20·seed; in the
   * doubled window the baseline's seed 3 times {@code drift}.
   */
  private static PodsNeeded.Verdict latencyFake(
      String policy, long seed, int pods, boolean doubled, double drift) {
    boolean baseline = !policy.equals("pointsman");
    double p99 = baseline ? 1_700 + 100 * seed : 380 + 20 * seed;
    if (doubled && baseline && seed == 3) {
      p99 *= drift;
    }
    return new PodsNeeded.Verdict(pods >= (baseline ? 7 : 5), p99, 1);
  }

  @Test
  void theBestBaselineIsRankedByItsMedianSoOneFailedSeedDoesNotHideIt() {
    PodsNeededReport.Row product = row("pointsman", 4, 5, 4);
    PodsNeededReport.Row oneFailed = row("gie-default", 8, -1, 9);
    PodsNeededReport.Row allFailed = row("round-robin", -1, -1, -1);
    PodsNeededReport.Row worse = row("dynamo-kv", 18, 18, 18);
    String v = PodsNeededReport.verdicts(List.of(allFailed, worse, oneFailed, product));
    // gie-default's median is 9, dynamo-kv's 18, round-robin's unbounded
    assertThat(v).contains("(gie-default)");
    // pointsman's interval lies below 8, the fewest any gie-default seed needed
    assertThat(v).contains("**win**");
  }

  @Test
  void requestsARestartKilledInFlightAreLeftOutOfTheServedShareButRefusedOnesAreNot() {
    // 2,000 measured: 1,990 completed, 10 failed; 9 of those were lost in flight to a restart
    assertThat(PodsNeededSuite.verdict(run(1990, 10, 9), 2000).passes()).isTrue();
    assertThat(PodsNeededSuite.verdict(run(1990, 10, 9), 2000).served())
        .isCloseTo(1990 / 1991.0, org.assertj.core.data.Offset.offset(1e-9));
    // the same 10 refused by a pod that was already down: 99.5% served, below 99.9%
    assertThat(PodsNeededSuite.verdict(run(1990, 10, 0), 2000).passes()).isFalse();
  }

  private static dev.pointsman.bench.routing.run.RunResult run(
      int completed, int failed, int lostInFlight) {
    return new dev.pointsman.bench.routing.run.RunResult(
        "p",
        0.5,
        1,
        10,
        completed,
        failed,
        lostInFlight,
        0,
        0,
        new dev.pointsman.bench.routing.run.RunResult.Ttft(100, 100, 100, 100),
        new dev.pointsman.bench.routing.run.RunResult.Tail(10, 20),
        new dev.pointsman.bench.routing.run.RunResult.Tail(100, 100),
        1000,
        9,
        0,
        0,
        0,
        0,
        0,
        null,
        null,
        new int[] {completed},
        new double[] {100},
        java.util.List.of());
  }

  @Test
  void aRateIsPrintedToTheHundredthSoATracesFractionOfARequestASecondShows() {
    assertThat(PodsNeededReport.rate(0.27)).isEqualTo("0.27");
    assertThat(PodsNeededReport.rate(4.8)).isEqualTo("4.8");
    assertThat(PodsNeededReport.rate(20)).isEqualTo("20.0");
    assertThat(PodsNeededReport.rate(185)).isEqualTo("185.0");
    assertThat(PodsNeededReport.rate(45.614)).isEqualTo("45.61");
  }

  @Test
  void aFigureMayMoveByTenPercentAndStand() {
    // one pod where 10% is less than a pod, else 10%
    assertThat(PodsNeeded.stillStanding(8)).isEqualTo(9);
    assertThat(PodsNeeded.stillStanding(10)).isEqualTo(11);
    assertThat(PodsNeeded.stillStanding(20)).isEqualTo(22);
    assertThat(PodsNeeded.stillStanding(31)).isEqualTo(34);
  }

  @Test
  void theThroughputFloorIsTheSmallestFleetWhoseSummedCapacityReachesTheRate() {
    // capacities of nested fleets of 3..12 pods: 10 req/s per pod
    java.util.function.IntToDoubleFunction tenEach = n -> 10.0 * n;
    PodsNeeded.Floor exact = PodsNeeded.Floor.of(70, 3, 12, tenEach, true);
    assertThat(exact.pods()).isEqualTo(7);
    assertThat(exact.capacity()).isEqualTo(70.0);
    assertThat(exact.capacityBelow()).isEqualTo(60.0);
    assertThat(PodsNeeded.Floor.of(70.5, 3, 12, tenEach, true).pods()).isEqualTo(8);
    // the smallest fleet already reaches it: nothing below to report
    PodsNeeded.Floor first = PodsNeeded.Floor.of(5, 3, 12, tenEach, true);
    assertThat(first.pods()).isEqualTo(3);
    assertThat(first.capacityBelow()).isZero();
    // beyond the largest fleet tried
    PodsNeeded.Floor beyond = PodsNeeded.Floor.of(500, 3, 12, tenEach, true);
    assertThat(beyond.pods()).isEqualTo(-1);
    assertThat(beyond.capacity()).isEqualTo(120.0);
  }

  @Test
  void theFloorBoundsEveryPolicyOnlyOnPlainTraffic() {
    assertThat(PodsNeededSuite.plainTraffic(Scenarios.load("s1"))).isTrue();
    assertThat(
            Scenarios.load("s3").instances().stream().map(PodsNeededSuite::plainTraffic).toList())
        .containsOnly(false);
    assertThat(
            Scenarios.load("s4").instances().stream().map(PodsNeededSuite::plainTraffic).toList())
        .containsOnly(false);
    PodsNeeded.Scenario plain = withFloor(new PodsNeeded.Floor(7, 161.2, 139.9, true));
    assertThat(PodsNeededReport.floorLine(plain))
        .contains("Throughput floor: 7 pods (capacity 161.2 req/s; 6 pods: 139.9 req/s;")
        .contains("no policy can keep up with this rate on fewer pods");
    PodsNeeded.Scenario shared = withFloor(new PodsNeeded.Floor(7, 161.2, 139.9, false));
    assertThat(PodsNeededReport.floorLine(shared)).contains("a reference, not a bound");
    assertThat(PodsNeededReport.floorLine(withFloor(new PodsNeeded.Floor(2, 24.4, 12.2, false))))
        .contains("floor: 2 pods (capacity 24.4 req/s; 1 pod: 12.2 req/s;");
    String md =
        PodsNeededReport.markdown(
            List.of(plain), List.of("x"), List.of(1L), List.of(), prices, false);
    assertThat(md)
        .contains("warm-up\n- Throughput floor: 7 pods")
        .contains(
            "fewer pods (plain traffic: a pod's throughput does not depend on the routing)\n\n| policy");
  }

  private PodsNeeded.Scenario withFloor(PodsNeeded.Floor floor) {
    PodsNeeded.Scenario s = s1();
    return new PodsNeeded.Scenario(
        s.scenario(),
        s.scaling(),
        s.rate(),
        s.rateSource(),
        s.maxPods(),
        s.calibrationRequests(),
        s.memo(),
        floor);
  }

  @Test
  void onlyShippedPoliciesOtherThanTheProductCompeteAsTheBestBaseline() {
    assertThat(PodsNeededReport.isBaseline("gie-default")).isTrue();
    assertThat(PodsNeededReport.isBaseline("weighted-least-request")).isTrue();
    assertThat(PodsNeededReport.isBaseline("pointsman")).isFalse();
    assertThat(PodsNeededReport.isBaseline("greedy-lookahead")).isFalse();
    assertThat(PodsNeededReport.isBaseline("pointsman-kv-events")).isFalse();
    // an operator-written policy, such as the old default kept for a before-and-after
    assertThat(PodsNeededReport.isBaseline("pointsman-prefix1")).isFalse();
    PodsNeededReport.Row old = row("pointsman-prefix1", 3, 3, 3);
    PodsNeededReport.Row gie = row("gie-default", 8, 9, 9);
    assertThat(PodsNeededReport.bestBaseline(List.of(old, gie))).isEqualTo(gie);
  }
}
