package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.random.RandomGenerator;

/** The load-blind baselines and least-request: each a few lines. */
final class SimplePolicies {
  private SimplePolicies() {}

  /** {@code random}: a uniformly random pod. */
  static RoutingPolicy random(int pods, RandomGenerator random) {
    return new RoutingPolicy() {
      @Override
      public String name() {
        return "random";
      }

      @Override
      public Route route(BenchRequest request) {
        return Route.to(random.nextInt(pods));
      }
    };
  }

  /** {@code round-robin}: pods in turn. */
  static RoutingPolicy roundRobin(int pods) {
    return new RoutingPolicy() {
      private int next;

      @Override
      public String name() {
        return "round-robin";
      }

      @Override
      public Route route(BenchRequest request) {
        int pod = next;
        next = (next + 1) % pods;
        return Route.to(pod);
      }
    };
  }

  /**
   * {@code least-request}: power of two random choices over the router's own count of requests in
   * flight (Envoy's LEAST_REQUEST).
   */
  static RoutingPolicy leastRequest(int pods, RandomGenerator random) {
    OwnLoad load = new OwnLoad(pods);
    return new RoutingPolicy() {
      @Override
      public String name() {
        return "least-request";
      }

      @Override
      public Route route(BenchRequest request) {
        int a = random.nextInt(pods);
        int b = pods == 1 ? a : (a + 1 + random.nextInt(pods - 1)) % pods;
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
