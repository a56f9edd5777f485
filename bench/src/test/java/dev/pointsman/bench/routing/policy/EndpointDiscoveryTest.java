package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Imperfections;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every router learns of a restarting pod as Kubernetes tells it: the pod leaves the ready
 * endpoints {@link FleetView#DISCOVERY_LAG_MS} after it went down and comes back as long after it
 * is up again. Before that a health-blind router still sends to it; after, none does.
 */
class EndpointDiscoveryTest {
  private static final double LAG = FleetView.DISCOVERY_LAG_MS;
  private static final List<String> BASELINES =
      List.of(
          "random",
          "round-robin",
          "weighted-round-robin",
          "least-request",
          "weighted-least-request",
          "sglang-cache-aware",
          "sglang-least-load",
          "dynamo-kv");

  private final GpuProfiles gpus = GpuProfiles.builtIn();
  // restarts every 100 s per pod on average, 4 s down; nothing else imperfect
  private final Imperfections restarts =
      new Imperfections("clean", null, null, null, null, null, 36.0, 4.0);

  private record World(VirtualCluster cluster, FleetView fleet) {}

  private World world(String... profiles) {
    List<EngineConfig> configs = new ArrayList<>();
    for (int i = 0; i < profiles.length; i++) {
      configs.add(EngineConfig.of("p" + i, "base", gpus.get(profiles[i])));
    }
    VirtualCluster cluster = new VirtualCluster(configs, EngineListener.NONE, restarts, 1);
    FleetView fleet =
        new FleetView(
            configs, cluster, null, new ClientRequests("base", Set.of(), TextMix.defaults()), null);
    return new World(cluster, fleet);
  }

  private static BenchRequest request(long id) {
    return new BenchRequest(
        SimRequest.of(id, 0, List.of(new Segment(id, 100)), 10), "sharegpt", false);
  }

  /** The first restart of {@code pod}: {start, end} in ms, found at 1 ms resolution. */
  private static double[] firstRestart(VirtualCluster cluster, int pod) {
    double start = 0;
    while (!cluster.restartingAt(pod, start)) {
      start++;
    }
    double end = start;
    while (cluster.restartingAt(pod, end)) {
      end++;
    }
    return new double[] {start, end};
  }

  private static int sentTo(RoutingPolicy p, int pod, int requests, long firstId) {
    int n = 0;
    for (int i = 0; i < requests; i++) {
      BenchRequest r = request(firstId + i);
      Route route = p.route(r);
      if (route.pod() == pod) {
        n++;
      }
      if (route.outcome() == Route.Outcome.ROUTED) {
        p.onFinish(r, route.pod());
      }
    }
    return n;
  }

  @Test
  void everyBaselineStopsSendingToARestartingPodOnceItLeavesTheEndpoints() {
    for (String name : BASELINES) {
      World w = world("A100-80", "A100-80");
      double[] down = firstRestart(w.cluster(), 0);
      // the other pod stays up from the restart to its end plus the lag (checked, not assumed)
      for (double t = down[0]; t <= down[1] + LAG; t += 100) {
        assertThat(w.cluster().restartingAt(1, t)).as("pod 1 at %s ms", t).isFalse();
      }
      RoutingPolicy p = Policies.create(name, w.fleet(), new SplittableRandom(7));

      w.cluster().runUntil(down[0] + LAG / 2);
      assertThat(w.fleet().inEndpoints(0)).as(name + ": not yet learned").isTrue();
      if (name.endsWith("round-robin")) {
        // load-blind and in turn: the pod still gets its share until its readiness arrives
        assertThat(sentTo(p, 0, 100, 1_000)).as(name + " before the lag").isPositive();
      }

      w.cluster().runUntil(down[0] + LAG + 1);
      assertThat(w.fleet().inEndpoints(0)).as(name).isFalse();
      assertThat(sentTo(p, 0, 200, 2_000)).as(name + " once removed").isZero();

      w.cluster().runUntil(down[1] + LAG + 1);
      assertThat(w.fleet().inEndpoints(0)).as(name).isTrue();
      assertThat(sentTo(p, 0, 200, 3_000)).as(name + " once back").isPositive();
    }
  }

  @Test
  void withNoReadyPodEveryBaselineFailsTheRequest() {
    for (String name : BASELINES) {
      World w = world("L4");
      double[] down = firstRestart(w.cluster(), 0);
      RoutingPolicy p = Policies.create(name, w.fleet(), new SplittableRandom(7));
      w.cluster().runUntil(down[0] + LAG + 1);

      Route route = p.route(request(1));

      assertThat(route.outcome()).as(name).isEqualTo(Route.Outcome.FAILED);
      assertThat(route.pod()).as(name).isEqualTo(-1);
    }
  }

  /**
   * As the picker's membership listener does: once a restarting pod leaves the ready endpoints,
   * pointsman forgets what it believed the pod's prefix cache held and what it learned of its
   * latency, so the pod comes back (its caches empty) without a belief that it holds prompts.
   */
  @Test
  void pointsmanForgetsWhatItLearnedOfAPodThatLeftTheEndpoints() {
    World w = world("A100-80", "A100-80");
    double[] down = firstRestart(w.cluster(), 0);
    SchedulerPolicy p =
        (SchedulerPolicy) Policies.create("pointsman", w.fleet(), new SplittableRandom(7));
    String pod0 = FleetView.address(0);
    String pod1 = FleetView.address(1);
    w.cluster().runUntil(down[0] - 1);
    w.fleet().applyScrape(0, w.cluster().snapshot(0));
    w.fleet().applyScrape(1, w.cluster().snapshot(1));
    // held in flight, so that the load spreads them over both pods
    for (int i = 0; i < 50; i++) {
      p.route(request(1_000 + i));
    }
    assertThat(p.scheduler().prefixIndex().size(pod0)).isPositive();
    assertThat(p.scheduler().prefixIndex().size(pod1)).isPositive();

    w.cluster().runUntil(down[0] + LAG + 1);
    p.route(request(2_000));

    assertThat(p.scheduler().prefixIndex().size(pod0)).isZero();
    assertThat(p.scheduler().latencyModel().observations(pod0)).isZero();
    assertThat(p.scheduler().prefixIndex().size(pod1)).isPositive();

    // back in the endpoints, it is a candidate again, learning afresh
    w.cluster().runUntil(down[1] + LAG + 1);
    w.fleet().applyScrape(0, w.cluster().snapshot(0));
    assertThat(sentTo(p, 0, 200, 3_000)).isPositive();
    assertThat(p.scheduler().prefixIndex().size(pod0)).isPositive();
  }

  @Test
  void thePickerOffersNoPodKubernetesHasMarkedUnready() {
    World w = world("A100-80", "A100-80");
    double[] down = firstRestart(w.cluster(), 0);
    w.cluster().runUntil(down[0] + LAG + 1);
    // even a scrape that succeeded just now does not bring it back: the pod watch rules first
    w.fleet().applyScrape(0, w.cluster().snapshot(0));

    assertThat(w.fleet().available(0)).isFalse();
    assertThat(w.fleet().pool().endpoints().get(0).available()).isFalse();

    w.cluster().runUntil(down[1] + LAG + 1);
    w.fleet().applyScrape(0, w.cluster().snapshot(0));
    assertThat(w.fleet().available(0)).isTrue();
  }
}
