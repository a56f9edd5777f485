package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.Capacity;
import dev.pointsman.bench.routing.run.PolicyRun;
import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code --suite pods-needed}: per scenario at an absolute request rate, per policy and seed, the
 * smallest fleet (the scenario's GPU mix scaled in whole pods, {@link FleetScaling}) whose p99 TTFT
 * meets the scenario's SLO with at least {@link #SERVED} of the measured requests served, found by
 * {@link MonotoneSearch} between one pod per pool and {@link #MAX_SCALE} times the scenario's
 * fleet; then its cost per hour at {@link GpuPrices}. The rate is the scenario's {@code
 * rateReqPerS}, or {@link #DEFAULT_RATE_SHARE} of the scenario fleet's capacity on plain
 * ShareGPT-like traffic (no shared prefixes, no adapters: nothing for a single pod to thrash on).
 * {@code --quick} runs S1 and S5 only, at their quick run lengths, still on {@link #SEEDS}. {@code
 * --scenario}, {@code --traces} or {@code --trace} replace S1–S5 (a trace scenario file needs its
 * {@code rateReqPerS}; {@code --trace FILE} is sized at the trace's own mean rate: what-if).
 */
final class PodsNeededSuite implements Suite {
  static final List<String> SCENARIOS = List.of("s1", "s2", "s3", "s4", "s5");
  static final List<String> QUICK_SCENARIOS = List.of("s1-", "s5-");
  static final List<Long> SEEDS = List.of(1L, 2L, 3L);
  static final double DEFAULT_RATE_SHARE = 0.5;
  static final double SERVED = 0.999;
  static final int MAX_SCALE = 4;

  @Override
  public String description() {
    return "pods needed for the SLO at a stated request rate, per policy, S1–S5 (--quick: S1, S5)";
  }

  @Override
  public List<Scenario> scenarios() {
    List<Scenario> out = new ArrayList<>();
    SCENARIOS.forEach(name -> out.add(Scenarios.load(name)));
    return out;
  }

  /** Any scenario with a stated rate, or one the default rate applies to (not a trace). */
  @Override
  public boolean takesScenarios() {
    return true;
  }

  /**
   * A trace scenario has no plain-traffic version to take a default rate from: it must state one.
   */
  @Override
  public void check(Scenario s) {
    if (s.trace() != null && s.rateReqPerS() == null) {
      throw new IllegalArgumentException(
          s.name()
              + ": a trace scenario needs its rateReqPerS for the pods-needed suite (the rate to"
              + " size the fleet for; docs/benchmarks.md, \"Pods needed for the SLO\")");
    }
  }

  @Override
  public List<String> policies() {
    return List.of(
        "round-robin",
        "weighted-round-robin",
        "weighted-least-request",
        "gie-default",
        "sglang-cache-aware",
        "dynamo-kv",
        "pointsman");
  }

  /** Not used: the suite runs its own search ({@link #run}). */
  @Override
  public String summary(List<ScenarioResult> results) {
    throw new UnsupportedOperationException("pods-needed runs its own search");
  }

  /**
   * Whether a run meets the SLO: p99 TTFT within it, and enough of its requests served. Requests a
   * pod accepted and then lost when it restarted are left out of the served share: once sent, no
   * router could have saved them, and at these run lengths (0.1% is one or two requests) one
   * restart in the window would otherwise decide the figure. Requests sent to a pod that was
   * already down, or never answered, count as not served.
   */
  static PodsNeeded.Verdict verdict(RunResult r, double p99LimitMs) {
    int measured = r.measured() - r.lostInFlight();
    double served = measured <= 0 ? 0 : (double) r.completed() / measured;
    boolean passes = measured > 0 && r.ttftMs().p99() <= p99LimitMs && served >= SERVED;
    double good = r.offeredReqPerS() > 0 ? r.goodputReqPerS() / r.offeredReqPerS() : Double.NaN;
    return new PodsNeeded.Verdict(
        passes, r.ttftMs().p99(), served, r.tpotMs().p50(), r.tpotMs().p99(), good);
  }

  /** Runs the search (seeds: {@link #SEEDS} unless given) and returns the summary. */
  @Override
  public String search(Search run) {
    List<Long> seeds =
        run.seeds() == null || run.seeds().isEmpty() ? SEEDS : List.copyOf(run.seeds());
    List<PodsNeeded.Scenario> plans = new ArrayList<>();
    for (Scenario s : run.instances()) {
      if (!run.quick()
          || !run.ownScenarios()
          || QUICK_SCENARIOS.stream().anyMatch(s.name()::startsWith)) {
        plans.add(plan(s, run.calibrationRequests()));
      }
    }
    GpuPrices prices = GpuPrices.shipped();
    PodsNeeded.Evaluator evaluator =
        (plan, policy, seed, pods, doubled) ->
            evaluate(plan, policy, run.custom(), seed, pods, doubled);
    PodsNeeded search = new PodsNeeded(evaluator, run.threads(), run.progress());
    List<PodsNeeded.Outcome> outcomes = search.run(plans, run.policies(), seeds);
    return PodsNeededReport.markdown(plans, run.policies(), seeds, outcomes, prices, run.quick());
  }

  private PodsNeeded.Scenario plan(Scenario s, int calibrationRequests) {
    long calibrationSeed = s.seeds().get(0) + 1000;
    double rate;
    String why;
    if (s.rateReqPerS() != null) {
      rate = s.rateReqPerS();
      why =
          s.name().startsWith("trace-")
              ? "the trace's own mean arrival rate"
              : "the scenario's rateReqPerS";
    } else {
      double plain =
          Capacity.calibrate(s.withPlainTraffic(), calibrationRequests, calibrationSeed)
              .fleetRequestsPerSecond();
      rate = DEFAULT_RATE_SHARE * plain;
      why =
          String.format(
              java.util.Locale.ROOT,
              "default: %.0f%% of the scenario fleet's capacity on plain ShareGPT-like traffic"
                  + " (%.1f req/s)",
              DEFAULT_RATE_SHARE * 100,
              plain);
    }
    FleetScaling scaling = new FleetScaling(s.fleet());
    Map<String, Double> memo = new ConcurrentHashMap<>();
    int maxPods = MAX_SCALE * scaling.basePods();
    PodsNeeded.Floor floor =
        PodsNeeded.Floor.of(
            rate,
            scaling.minPods(),
            maxPods,
            n ->
                Capacity.calibrate(
                        s.withFleet(s.name() + "-pods-" + n, scaling.fleet(n)),
                        calibrationRequests,
                        calibrationSeed,
                        memo)
                    .fleetRequestsPerSecond(),
            plainTraffic(s));
    return new PodsNeeded.Scenario(
        s, scaling, rate, why, maxPods, calibrationRequests, memo, floor);
  }

  /**
   * Whether a pod's throughput on this scenario's traffic is the same whatever else it is sent: no
   * shared prefixes (every part ShareGPT-like, no trace with prefix ids) and no adapters.
   */
  static boolean plainTraffic(Scenario s) {
    return s.trace() == null
        && s.lora() == null
        && s.workload() != null
        && s.workload().stream().allMatch(p -> p.kind().equals("sharegpt"));
  }

  private PodsNeeded.Verdict evaluate(
      PodsNeeded.Scenario plan,
      String policy,
      Map<String, dev.pointsman.picker.scheduling.PolicyConfig> custom,
      long seed,
      int pods,
      boolean doubled) {
    Scenario s = plan.scenario();
    Scenario scaled = s.withFleet(s.name() + "-pods-" + pods, plan.scaling().fleet(pods));
    if (doubled) {
      scaled = scaled.withMeasuredWindowTimes(2);
    }
    Capacity capacity =
        Capacity.calibrate(
            scaled, plan.calibrationRequests(), s.seeds().get(0) + 1000, plan.memo());
    double load = plan.rate() / capacity.fleetRequestsPerSecond();
    RunResult r = PolicyRun.run(scaled, capacity, policy, custom, load, seed);
    return verdict(r, s.slo().kneeP99TtftMs());
  }
}
