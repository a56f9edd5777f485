package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.BenchRunner;
import dev.pointsman.bench.routing.run.Capacity;
import dev.pointsman.bench.routing.run.PolicyRun;
import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.picker.scheduling.PolicyConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code --suite knee-latency}: on each scenario's own fleet, each policy's knee — the highest
 * request rate at which it meets the SLO on every seed, in the scenario's measured window and with
 * that window doubled ({@link KneeSearch}) — and, at the knee of the best baseline (the listed
 * policy other than pointsman with the highest knee), every policy's p99 TTFT per seed. That is the
 * rate at which a latency comparison means something: the baseline holds the SLO there on every
 * seed and its figure stands at twice the run length, so a reduction measures the router, not the
 * length of an overload. The pods-needed suite reads latency at one stated rate per scenario, which
 * is past a baseline's knee on some seed for most scenarios.
 */
final class KneeLatencySuite implements Suite {
  static final List<Long> SEEDS = List.of(1L, 2L, 3L);

  /** Bisection stops when the bracket's ends are within 3% of each other. */
  static final double PRECISION = 0.03;

  @Override
  public String description() {
    return "p99 TTFT at the best baseline's knee rate on each scenario's own fleet, S1–S5";
  }

  /** The pods-needed suite's scenarios (S1–S5). */
  @Override
  public List<Scenario> scenarios() {
    return new PodsNeededSuite().scenarios();
  }

  @Override
  public boolean takesScenarios() {
    return true;
  }

  /** The baselines that were best somewhere in the pods-needed table, and pointsman. */
  @Override
  public List<String> policies() {
    return List.of("weighted-least-request", "gie-default", "sglang-cache-aware", "pointsman");
  }

  @Override
  public String summary(List<ScenarioResult> results) {
    throw new UnsupportedOperationException("knee-latency runs its own search");
  }

  @Override
  public String search(Search run) {
    List<Long> seeds =
        run.seeds() == null || run.seeds().isEmpty() ? SEEDS : List.copyOf(run.seeds());
    ExecutorService pool =
        Executors.newFixedThreadPool(
            run.threads(),
            r -> {
              Thread t = new Thread(r, "knee-latency");
              t.setDaemon(true);
              return t;
            });
    try {
      List<KneeLatencyReport.Section> sections = new ArrayList<>();
      for (Scenario s : run.instances()) {
        sections.add(scenario(s, run, seeds, pool));
      }
      return KneeLatencyReport.markdown(sections, seeds, run.quick());
    } finally {
      pool.shutdownNow();
      run.progress().finish();
    }
  }

  private KneeLatencyReport.Section scenario(
      Scenario s, Search run, List<Long> seeds, ExecutorService pool) {
    long calibrationSeed = s.seeds().get(0) + 1000;
    Capacity capacity = Capacity.calibrate(s, run.calibrationRequests(), calibrationSeed);
    double start =
        s.rateReqPerS() != null
            ? s.rateReqPerS()
            : PodsNeededSuite.DEFAULT_RATE_SHARE
                * Capacity.calibrate(
                        s.withPlainTraffic(), run.calibrationRequests(), calibrationSeed)
                    .fleetRequestsPerSecond();
    Runner runner = new Runner(s, capacity, run.custom(), seeds, pool);
    List<KneeLatencyReport.PolicyKnee> knees = new ArrayList<>();
    for (String policy : run.policies()) {
      KneeSearch.Knee knee =
          KneeSearch.highest(start, PRECISION, rate -> runner.at(policy, rate).passes());
      knees.add(new KneeLatencyReport.PolicyKnee(policy, knee));
      run.progress().step(s.name() + " " + policy);
    }
    KneeLatencyReport.PolicyKnee best = KneeLatencyReport.best(knees);
    List<PodsNeededReport.Latency> latencies = new ArrayList<>();
    if (best != null) {
      double rate = best.knee().passing();
      for (String policy : run.policies()) {
        Point p = runner.at(policy, rate);
        latencies.add(new PodsNeededReport.Latency(policy, p.p99Ms(), p.doubledP99Ms()));
      }
    }
    return new KneeLatencyReport.Section(
        s, capacity.perPod().length, start, knees, best, latencies);
  }

  /**
   * One policy at one rate on every seed, in both windows.
   *
   * @param passes whether every seed met the SLO in both windows
   */
  record Point(boolean passes, double[] p99Ms, double[] doubledP99Ms) {}

  /** Runs (policy, rate) points, each once, its seeds and windows in parallel. */
  private static final class Runner {
    private final Scenario scenario;
    private final Scenario doubled;
    private final Capacity capacity;
    private final Map<String, PolicyConfig> custom;
    private final List<Long> seeds;
    private final ExecutorService pool;
    private final Map<String, Point> done = new ConcurrentHashMap<>();

    Runner(
        Scenario scenario,
        Capacity capacity,
        Map<String, PolicyConfig> custom,
        List<Long> seeds,
        ExecutorService pool) {
      this.scenario = scenario;
      this.doubled = scenario.withMeasuredWindowTimes(2);
      this.capacity = capacity;
      this.custom = custom;
      this.seeds = seeds;
      this.pool = pool;
    }

    Point at(String policy, double rate) {
      return done.computeIfAbsent(policy + "@" + rate, k -> run(policy, rate));
    }

    private Point run(String policy, double rate) {
      double load = rate / capacity.fleetRequestsPerSecond();
      List<Future<RunResult>> normal = new ArrayList<>();
      List<Future<RunResult>> twice = new ArrayList<>();
      for (long seed : seeds) {
        normal.add(
            pool.submit(() -> PolicyRun.run(scenario, capacity, policy, custom, load, seed)));
        twice.add(pool.submit(() -> PolicyRun.run(doubled, capacity, policy, custom, load, seed)));
      }
      double slo = scenario.slo().kneeP99TtftMs();
      boolean passes = true;
      double[] p99 = new double[seeds.size()];
      double[] p99Doubled = new double[seeds.size()];
      for (int i = 0; i < seeds.size(); i++) {
        PodsNeeded.Verdict a = PodsNeededSuite.verdict(BenchRunner.get(normal.get(i)), slo);
        PodsNeeded.Verdict b = PodsNeededSuite.verdict(BenchRunner.get(twice.get(i)), slo);
        p99[i] = a.p99Ms();
        p99Doubled[i] = b.p99Ms();
        passes &= a.passes() && b.passes();
      }
      return new Point(passes, p99, p99Doubled);
    }
  }
}
