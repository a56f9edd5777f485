package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.random.RandomGenerator;

/**
 * The load-blind baselines and least-request: each a few lines. Each chooses among the pods the
 * data plane knows as ready ({@link FleetView#inEndpoints}), as Envoy balances over the hosts EDS
 * gives it; with none, the request fails (Envoy's "no healthy upstream").
 */
final class SimplePolicies {
  private SimplePolicies() {}

  /** {@code random}: a uniformly random pod. */
  static RoutingPolicy random(FleetView fleet, RandomGenerator random) {
    int pods = fleet.size();
    return new RoutingPolicy() {
      @Override
      public String name() {
        return "random";
      }

      @Override
      public Route route(BenchRequest request) {
        int[] listed = fleet.endpointsIfSome();
        if (listed == null) {
          return Route.to(random.nextInt(pods));
        }
        return listed.length == 0
            ? Route.failed()
            : Route.to(listed[random.nextInt(listed.length)]);
      }
    };
  }

  /** {@code round-robin}: pods in turn. */
  static RoutingPolicy roundRobin(FleetView fleet) {
    int pods = fleet.size();
    return new RoutingPolicy() {
      private int next;

      @Override
      public String name() {
        return "round-robin";
      }

      @Override
      public Route route(BenchRequest request) {
        for (int tried = 0; tried < pods; tried++) {
          int pod = next;
          next = (next + 1) % pods;
          if (fleet.inEndpoints(pod)) {
            return Route.to(pod);
          }
        }
        return Route.failed();
      }
    };
  }

  /**
   * {@code least-request}: power of two random choices over the router's own count of requests in
   * flight (Envoy's LEAST_REQUEST).
   */
  static RoutingPolicy leastRequest(FleetView fleet, RandomGenerator random) {
    int pods = fleet.size();
    OwnLoad load = new OwnLoad(pods);
    return new RoutingPolicy() {
      @Override
      public String name() {
        return "least-request";
      }

      @Override
      public Route route(BenchRequest request) {
        int[] listed = fleet.endpointsIfSome();
        if (listed != null && listed.length == 0) {
          return Route.failed();
        }
        int n = listed == null ? pods : listed.length;
        int a = random.nextInt(n);
        int b = n == 1 ? a : (a + 1 + random.nextInt(n - 1)) % n;
        if (listed != null) {
          a = listed[a];
          b = listed[b];
        }
        int la = load.liveRequests(a);
        int lb = load.liveRequests(b);
        int pod = la < lb ? a : lb < la ? b : (random.nextBoolean() ? a : b);
        load.assign(request, pod);
        return Route.to(pod);
      }

      @Override
      public void onFinish(BenchRequest request, int pod) {
        load.finish(request, pod);
      }
    };
  }
}
