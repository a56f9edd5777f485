package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.BenchRunner;
import dev.pointsman.bench.routing.run.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs the pods-needed searches: one {@link MonotoneSearch} per (scenario, policy, seed), each a
 * task on a small thread pool; whether a fleet of n pods passes comes from an {@link Evaluator} (a
 * virtual-time run in the suite, a fake in tests). Results do not depend on the number of threads.
 */
final class PodsNeeded {
  /** How {@code policy} on the fleet of {@code pods} pods does on seed {@code seed}. */
  @FunctionalInterface
  interface Evaluator {
    Verdict run(Scenario plan, String policy, long seed, int pods);
  }

  /**
   * One fleet size's run.
   *
   * @param passes whether it meets the SLO
   * @param p99Ms its p99 TTFT
   * @param served the share of measured requests served
   */
  record Verdict(boolean passes, double p99Ms, double served) {}

  /**
   * One scenario to size.
   *
   * @param scenario the scenario (its fleet is the base mix)
   * @param scaling how its mix scales
   * @param rate the request rate, req/s
   * @param rateSource where the rate comes from, for the report
   * @param maxPods the largest fleet tried
   * @param calibrationRequests requests per pod configuration when calibrating capacity
   * @param memo per-configuration capacities already measured (shared by this scenario's fleets)
   */
  record Scenario(
      dev.pointsman.bench.routing.scenario.Scenario scenario,
      FleetScaling scaling,
      double rate,
      String rateSource,
      int maxPods,
      int calibrationRequests,
      Map<String, Double> memo) {}

  /**
   * The smallest passing fleet of one (scenario, policy, seed), or empty when {@code maxPods}
   * fails; {@code runs} is how many fleet sizes were run to find it; {@code largestFailed} the
   * largest size that failed and how (null when none failed).
   */
  record Outcome(
      String scenario,
      String policy,
      long seed,
      OptionalInt pods,
      int runs,
      Integer largestFailed,
      Verdict failure) {}

  private final Evaluator evaluator;
  private final int threads;
  private final Progress progress;

  PodsNeeded(Evaluator evaluator, int threads, Progress progress) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads: " + threads + " (expected >= 1)");
    }
    this.evaluator = evaluator;
    this.threads = threads;
    this.progress = progress;
  }

  /** Every (scenario, policy, seed) search, in that order. */
  List<Outcome> run(List<Scenario> plans, List<String> policies, List<Long> seeds) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "pods-needed");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<Outcome>> futures = new ArrayList<>();
      progress.addWork(plans.size() * policies.size() * seeds.size());
      for (Scenario plan : plans) {
        for (String policy : policies) {
          for (long seed : seeds) {
            futures.add(pool.submit(() -> search(plan, policy, seed)));
          }
        }
      }
      List<Outcome> out = new ArrayList<>(futures.size());
      for (Future<Outcome> f : futures) {
        out.add(BenchRunner.get(f));
      }
      return out;
    } finally {
      pool.shutdownNow();
      progress.finish();
    }
  }

  Outcome search(Scenario plan, String policy, long seed) {
    int[] runs = {0};
    int[] failedAt = {-1};
    Verdict[] failure = {null};
    OptionalInt pods =
        MonotoneSearch.smallest(
            plan.scaling().minPods(),
            plan.scaling().basePods(),
            plan.maxPods(),
            n -> {
              runs[0]++;
              Verdict v = evaluator.run(plan, policy, seed, n);
              if (!v.passes() && n > failedAt[0]) {
                failedAt[0] = n;
                failure[0] = v;
              }
              return v.passes();
            });
    progress.step(plan.scenario().name() + " " + policy + " seed " + seed);
    return new Outcome(
        plan.scenario().name(),
        policy,
        seed,
        pods,
        runs[0],
        failedAt[0] < 0 ? null : failedAt[0],
        failure[0]);
  }
}
