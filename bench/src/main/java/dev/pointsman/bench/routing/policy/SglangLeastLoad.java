package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.random.RandomGenerator;

/**
 * {@code sglang-least-load}: the heterogeneity-aware least-load rule, cost = (queued + in-flight
 * prompt tokens) ÷ the pod's throughput + 0.15·k/(1−k), k the scraped KV-cache use; lowest wins.
 * Tokens are the router's own accounting of what it sent and has not finished; throughput is the
 * prefill rate of the pod's GPU profile (its {@code gpu} label).
 */
final class SglangLeastLoad implements RoutingPolicy {
  private final FleetView fleet;
  private final RandomGenerator random;
  private final OwnLoad load;

  SglangLeastLoad(FleetView fleet, RandomGenerator random) {
    this.fleet = fleet;
    this.random = random;
    this.load = new OwnLoad(fleet.size());
  }

  @Override
  public String name() {
    return "sglang-least-load";
  }

  @Override
  public Route route(BenchRequest r) {
    int n = fleet.size();
    double[] cost = new double[n];
    for (int i = 0; i < n; i++) {
      if (!fleet.inEndpoints(i)) {
        cost[i] = Double.POSITIVE_INFINITY;
        continue;
      }
      double k = Math.min(0.99, fleet.metrics(i).kvUsageOrZero());
      cost[i] = load.liveTokens(i) / fleet.speed(i).prefillTokensPerSecond() + 0.15 * k / (1 - k);
    }
    int pod = Ties.argMin(cost, random);
    if (pod < 0) {
      return Route.failed();
    }
    load.assign(r, pod);
    return Route.to(pod);
  }

  @Override
  public void onFinish(BenchRequest request, int pod) {
    load.finish(request, pod);
  }
}
