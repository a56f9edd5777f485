package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.function.IntToDoubleFunction;
import java.util.random.RandomGenerator;

/**
 * The two weighted balancers an operator would set in Envoy for a mixed-GPU fleet, with the static
 * per-pod weights of {@link EnvoyWeights} (from measured capacity). Sources: Envoy's load balancer
 * docs ("Supported load balancers": weighted round robin, weighted least request) and {@code
 * least_request.proto} ({@code choice_count} default 2, {@code active_request_bias} default 1.0),
 * and {@code source/extensions/load_balancing_policies/least_request/ least_request_lb.cc} (v1.35:
 * P2C when all weights are equal, else an EDF schedule with the weight {@code load_balancing_weight
 * / (active_requests + 1)^active_request_bias} read at pick time).
 */
final class EnvoyWeighted {
  /** Envoy's default {@code active_request_bias}. */
  static final double ACTIVE_REQUEST_BIAS = 1.0;

  private EnvoyWeighted() {}

  /**
   * {@code weighted-round-robin}: Envoy's {@code ROUND_ROBIN} with endpoint weights, an EDF
   * schedule in which each pod is picked in proportion to its weight, blind to load; with outlier
   * detection ({@link OutlierDetection}).
   */
  static RoutingPolicy roundRobin(FleetView fleet) {
    int[] weights = EnvoyWeights.of(fleet.capacities());
    EdfSchedule edf = new EdfSchedule(weights.length, i -> weights[i]);
    OutlierDetection outliers = new OutlierDetection(fleet);
    return new RoutingPolicy() {
      @Override
      public String name() {
        return "weighted-round-robin";
      }

      @Override
      public Route route(BenchRequest request) {
        return next(fleet, outliers, edf, i -> weights[i]);
      }

      @Override
      public void onFirstToken(BenchRequest request, int pod) {
        outliers.success(pod);
      }

      @Override
      public void onFailed(BenchRequest request, int pod) {
        outliers.failure(pod);
      }

      @Override
      public void onRefused(BenchRequest request, int pod) {
        // a 4xx: not an outlier
      }
    };
  }

  /**
   * {@code weighted-least-request}: Envoy's {@code LEAST_REQUEST} with endpoint weights and its
   * defaults. Equal weights: two random pods, the one with fewer active requests (the first drawn
   * on a tie), as {@code least-request}. Unequal weights: the EDF schedule whose weights fall with
   * the pod's active requests, {@code weight / (active + 1)^bias}. Active requests are this
   * router's own, in flight until the response ends. With outlier detection ({@link
   * OutlierDetection}).
   */
  static RoutingPolicy leastRequest(FleetView fleet, RandomGenerator random) {
    int[] weights = EnvoyWeights.of(fleet.capacities());
    int n = weights.length;
    OwnLoad load = new OwnLoad(n);
    OutlierDetection outliers = new OutlierDetection(fleet);
    boolean equal = EnvoyWeights.allEqual(weights);
    IntToDoubleFunction dynamic =
        i -> weights[i] / Math.pow(load.liveRequests(i) + 1, ACTIVE_REQUEST_BIAS);
    EdfSchedule edf = equal ? null : new EdfSchedule(n, dynamic);
    return new RoutingPolicy() {
      @Override
      public String name() {
        return "weighted-least-request";
      }

      @Override
      public Route route(BenchRequest request) {
        Route route =
            equal ? twoChoices(fleet, outliers, load, random) : next(fleet, outliers, edf, dynamic);
        if (route.outcome() == Route.Outcome.ROUTED) {
          load.assign(request, route.pod());
        }
        return route;
      }

      @Override
      public void onFirstToken(BenchRequest request, int pod) {
        outliers.success(pod);
      }

      @Override
      public void onFinish(BenchRequest request, int pod) {
        load.finish(request, pod);
      }

      @Override
      public void onFailed(BenchRequest request, int pod) {
        outliers.failure(pod);
        load.finish(request, pod);
      }

      @Override
      public void onRefused(BenchRequest request, int pod) {
        load.finish(request, pod); // a 4xx: not an outlier
      }
    };
  }

  /**
   * The pods Envoy balances over now, in order: those EDS lists as ready and outlier detection has
   * not ejected; {@code null} when that is every pod.
   */
  private static int[] hosts(FleetView fleet, OutlierDetection outliers) {
    int[] listed = fleet.endpointsIfSome();
    if (!outliers.anyEjected()) {
      return listed;
    }
    int n = fleet.size();
    int[] out = new int[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (fleet.inEndpoints(i) && !outliers.ejected(i)) {
        out[k++] = i;
      }
    }
    return java.util.Arrays.copyOf(out, k);
  }

  /**
   * The next pod of {@code edf} among {@link #hosts}: the schedule runs on past the others (each
   * keeps its place and its share when it comes back); failed when there is none.
   */
  private static Route next(
      FleetView fleet, OutlierDetection outliers, EdfSchedule edf, IntToDoubleFunction weight) {
    int[] hosts = hosts(fleet, outliers);
    if (hosts != null && hosts.length == 0) {
      return Route.failed();
    }
    int pod = edf.pick(weight);
    while (hosts != null && (!fleet.inEndpoints(pod) || outliers.ejected(pod))) {
      pod = edf.pick(weight);
    }
    return Route.to(pod);
  }

  /**
   * Envoy's P2C over {@link #hosts}: {@code choice_count} pods drawn at random (with replacement,
   * as Envoy draws them), the one with the fewest active requests, the first drawn on a tie; failed
   * when none is ready.
   */
  static Route twoChoices(
      FleetView fleet, OutlierDetection outliers, OwnLoad load, RandomGenerator random) {
    int[] listed = hosts(fleet, outliers);
    int n = listed == null ? fleet.size() : listed.length;
    if (n == 0) {
      return Route.failed();
    }
    int best = -1;
    for (int i = 0; i < EnvoyBalancer.CHOICE_COUNT; i++) {
      int draw = random.nextInt(n);
      int candidate = listed == null ? draw : listed[draw];
      if (best < 0 || load.liveRequests(candidate) < load.liveRequests(best)) {
        best = candidate;
      }
    }
    return Route.to(best);
  }
}
