package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.BenchRunner;
import dev.pointsman.bench.routing.run.Progress;
import java.util.ArrayList;
import java.util.HashMap;
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
 *
 * <p>Each figure found is then checked against the run's length: the fleet of n pods is run again
 * with the measured window doubled, and where it fails there, pods are added one at a time up to
 * {@link #MOVED_SHARE} above n. A figure that doubling moves by more than that is {@linkplain
 * Outcome#moved() moved}, and the report refuses a verdict built on it.
 */
final class PodsNeeded {
  /** How {@code policy} on the fleet of {@code pods} pods does on seed {@code seed}. */
  @FunctionalInterface
  interface Evaluator {
    /** {@code doubled}: with the measured window twice the scenario's. */
    Verdict run(Scenario plan, String policy, long seed, int pods, boolean doubled);
  }

  /**
   * How much doubling the run's length may move a figure before the report rejects it: 10%, or one
   * pod where 10% is less than a pod (a fleet of 8 cannot move by less than 12.5%).
   */
  static final double MOVED_SHARE = 0.10;

  /**
   * One fleet size's run.
   *
   * @param passes whether it meets the SLO
   * @param p99Ms its p99 TTFT
   * @param served the share of measured requests served
   * @param tpotP50Ms its median time per output token (NaN: not known)
   * @param tpotP99Ms its p99 time per output token (NaN: not known)
   * @param goodShare its goodput (requests a second within both the scenario's TTFT and TPOT
   *     objectives) as a share of the rate offered (NaN: not known)
   */
  record Verdict(
      boolean passes,
      double p99Ms,
      double served,
      double tpotP50Ms,
      double tpotP99Ms,
      double goodShare) {
    /** A verdict on time to first token alone. */
    Verdict(boolean passes, double p99Ms, double served) {
      this(passes, p99Ms, served, Double.NaN, Double.NaN, Double.NaN);
    }
  }

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
   * @param floor the throughput floor at {@code rate} (null: not computed)
   */
  record Scenario(
      dev.pointsman.bench.routing.scenario.Scenario scenario,
      FleetScaling scaling,
      double rate,
      String rateSource,
      int maxPods,
      int calibrationRequests,
      Map<String, Double> memo,
      Floor floor) {}

  /**
   * The throughput floor of a scenario at its rate: the smallest fleet of the nested sequence whose
   * capacity (the sum of each pod's saturation throughput, every pod measured alone on the
   * scenario's traffic) reaches the rate. Below it the fleet cannot keep up with the arrivals in
   * steady state whatever the routing, so no policy needs fewer pods — where a pod's throughput
   * does not depend on what else it is sent: traffic without shared prefixes and without adapters
   * ({@code bound}). Where prompts share prefixes or adapters, a router that concentrates them can
   * make a pod faster than it is alone on the mixed stream, and the floor is only a reference.
   *
   * @param pods the smallest fleet whose capacity reaches the rate, or -1 when none up to the
   *     largest fleet tried does
   * @param capacity that fleet's capacity, req/s (the largest fleet's when {@code pods} is -1)
   * @param capacityBelow the capacity of the fleet one pod smaller, req/s (0 when there is none)
   * @param bound whether the floor bounds every policy (plain traffic) or is only a reference
   */
  record Floor(int pods, double capacity, double capacityBelow, boolean bound) {
    /**
     * The floor for {@code rate} over fleets of {@code minPods..maxPods} pods, {@code capacityOf}
     * giving a fleet's capacity in req/s (non-decreasing in pods, as nested fleets are).
     */
    static Floor of(
        double rate,
        int minPods,
        int maxPods,
        java.util.function.IntToDoubleFunction capacityOf,
        boolean bound) {
      double below = 0;
      for (int n = minPods; n <= maxPods; n++) {
        double c = capacityOf.applyAsDouble(n);
        if (c >= rate) {
          return new Floor(n, c, below, bound);
        }
        below = c;
      }
      return new Floor(-1, below, below, bound);
    }
  }

  /**
   * The smallest passing fleet of one (scenario, policy, seed), or empty when {@code maxPods}
   * fails; {@code runs} is how many fleet sizes were run to find it (the doubled runs included);
   * {@code largestFailed} the largest size that failed and how (null when none failed). {@code
   * doubledPods}: the smallest fleet from {@code pods} up that passes with the measured window
   * doubled, or -1 when none up to {@link #MOVED_SHARE} above {@code pods} does (0 when {@code
   * pods} is empty: nothing to check). {@code onOwnFleet} and {@code onOwnFleetDoubled}: the runs
   * on the scenario's own fleet at this rate, in its window and in the doubled one (null when not
   * run): at the stated rate that is the best baseline's knee, where latency is compared. {@code
   * atPods}: the run of the fleet found ({@code pods}) in the scenario's window (null when none
   * passed), for what that fleet does to decoding.
   */
  record Outcome(
      String scenario,
      String policy,
      long seed,
      OptionalInt pods,
      int runs,
      Integer largestFailed,
      Verdict failure,
      int doubledPods,
      Verdict onOwnFleet,
      Verdict onOwnFleetDoubled,
      Verdict atPods) {
    Outcome(
        String scenario,
        String policy,
        long seed,
        OptionalInt pods,
        int runs,
        Integer largestFailed,
        Verdict failure,
        int doubledPods) {
      this(
          scenario,
          policy,
          seed,
          pods,
          runs,
          largestFailed,
          failure,
          doubledPods,
          null,
          null,
          null);
    }

    /** Whether doubling the run's length moved the figure by more than {@link #MOVED_SHARE}. */
    boolean moved() {
      return pods.isPresent() && doubledPods < 0;
    }
  }

  /**
   * The most pods a figure of {@code pods} may move to under doubling and still stand: 10% more, or
   * one pod more where 10% is less than a pod.
   */
  static int stillStanding(int pods) {
    return Math.max(pods + 1, (int) Math.floor(pods * (1 + MOVED_SHARE) + 1e-9));
  }

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
    int own = plan.scaling().basePods();
    Verdict[] onOwn = {null, null};
    Map<Integer, Verdict> byPods = new HashMap<>();
    OptionalInt pods =
        MonotoneSearch.smallest(
            plan.scaling().minPods(),
            plan.scaling().basePods(),
            plan.maxPods(),
            n -> {
              runs[0]++;
              Verdict v = evaluator.run(plan, policy, seed, n, false);
              byPods.put(n, v);
              if (n == own) {
                onOwn[0] = v;
              }
              if (!v.passes() && n > failedAt[0]) {
                failedAt[0] = n;
                failure[0] = v;
              }
              return v.passes();
            });
    int doubled = 0;
    if (pods.isPresent()) {
      doubled = -1;
      int n = pods.getAsInt();
      int limit = Math.min(plan.maxPods(), stillStanding(n));
      for (int m = n; m <= limit; m++) {
        runs[0]++;
        Verdict v = evaluator.run(plan, policy, seed, m, true);
        if (m == own) {
          onOwn[1] = v;
        }
        if (v.passes()) {
          doubled = m;
          break;
        }
      }
    }
    if (onOwn[0] != null && onOwn[1] == null) {
      runs[0]++;
      onOwn[1] = evaluator.run(plan, policy, seed, own, true);
    }
    progress.step(plan.scenario().name() + " " + policy + " seed " + seed);
    return new Outcome(
        plan.scenario().name(),
        policy,
        seed,
        pods,
        runs[0],
        failedAt[0] < 0 ? null : failedAt[0],
        failure[0],
        doubled,
        onOwn[0],
        onOwn[1],
        pods.isPresent() ? byPods.get(pods.getAsInt()) : null);
  }
}
