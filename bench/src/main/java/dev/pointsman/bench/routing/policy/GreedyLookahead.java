package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.sim.engine.Engine;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.PodSnapshot;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * {@code greedy-lookahead}: not a policy a gateway could run (it reads the exact state of every
 * pod), and not a bound either: it clones each pod, plays the request forward on the clone (nothing
 * else arriving) and picks the pod with the minimum TTFT for this request alone, blind to what its
 * choice does to later requests, so other policies can and do beat it. Pods are probed
 * cheapest-looking first and a probe stops as soon as it is slower than the best so far; pods whose
 * lower bound (API overhead plus one minimal step) cannot beat it are skipped. Neither changes the
 * choice; both save most of the cost. Probes stop at a {@link #HORIZON_MS} TTFT horizon (see
 * there). Pods where the request's adapter is not registered are never chosen.
 */
final class GreedyLookahead implements RoutingPolicy {
  /**
   * How far ahead a probe plays (ms of TTFT). Past it, in deep overload only, the lookahead stops
   * simulating and takes the pod with the least exact queued prompt work per unit of prefill speed;
   * without it one decision could replay minutes of a saturated engine.
   */
  static final double HORIZON_MS = 10_000;

  private final FleetView fleet;
  private final RandomGenerator random;

  GreedyLookahead(FleetView fleet, RandomGenerator random) {
    this.fleet = fleet;
    this.random = random;
  }

  @Override
  public String name() {
    return "greedy-lookahead";
  }

  @Override
  public Route route(BenchRequest r) {
    VirtualCluster cluster = fleet.exactClusterForLookahead();
    int n = cluster.size();
    Integer[] order = new Integer[n];
    double[] guess = new double[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
      PodSnapshot s = cluster.snapshot(i);
      guess[i] =
          (s.waitingPromptTokens() + r.sim().promptTokens())
                  / cluster.pod(i).config().gpu().prefillTokensPerSecond()
              + random.nextDouble() * 1e-9;
    }
    Arrays.sort(order, (a, b) -> Double.compare(guess[a], guess[b]));
    int best = -1;
    double bestTtft = HORIZON_MS;
    for (int i : order) {
      if (!fleet.serves(i, r) || lowerBoundMs(cluster.pod(i), r.sim()) >= bestTtft) {
        continue;
      }
      double ttft = probe(cluster, i, r.sim(), bestTtft);
      if (ttft < bestTtft) {
        bestTtft = ttft;
        best = i;
      }
    }
    if (best < 0) {
      // every pod is past the horizon: deep overload, far beyond any SLO
      for (int i : order) {
        if (fleet.serves(i, r)) {
          return Route.to(i, Double.NaN);
        }
      }
      return Route.to(order[0], Double.NaN);
    }
    return Route.to(best, bestTtft);
  }

  /**
   * No first token can come sooner than one minimal step after the request reaches the engine: pods
   * that cannot beat the best so far are not cloned.
   */
  private static double lowerBoundMs(Engine pod, SimRequest request) {
    return pod.config().apiOverheadMs() + pod.config().gpu().minStepMs();
  }

  /** TTFT of {@code request} on a clone of pod {@code pod}, or +inf once past {@code limitMs}. */
  private static double probe(VirtualCluster cluster, int pod, SimRequest request, double limitMs) {
    double[] first = {Double.NaN};
    Engine clone =
        cluster.clonePod(
            pod,
            new EngineListener() {
              @Override
              public void onFirstToken(int p, SimRequest q, double timeMs) {
                if (q.id() == request.id()) {
                  first[0] = timeMs;
                }
              }
            });
    try {
      clone.submit(request);
    } catch (IllegalArgumentException e) {
      return Double.POSITIVE_INFINITY;
    }
    double deadline = request.arrivalMs() + limitMs;
    while (Double.isNaN(first[0]) && clone.nextEventTime() < deadline && clone.processNext()) {
      // play forward until the first token or the deadline
    }
    return Double.isNaN(first[0]) ? Double.POSITIVE_INFINITY : first[0] - request.arrivalMs();
  }
}
