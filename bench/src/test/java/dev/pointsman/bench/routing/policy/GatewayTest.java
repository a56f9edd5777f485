package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.QueuedWork;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GatewayTest {
  private VirtualCluster cluster;

  @Test
  void envoySendsEachStreamToTheLessBusyOfTwoDrawnPickers() {
    EnvoyBalancer one = new EnvoyBalancer(1, 1, new SplittableRandom(1));
    assertThat(one.picker(one.open())).isZero();

    EnvoyBalancer b = new EnvoyBalancer(1, 2, new SplittableRandom(7));
    int[] count = new int[2];
    for (int i = 0; i < 1000; i++) {
      count[b.picker(b.open())]++;
    }
    // a draw of the same picker twice goes there whatever its load; otherwise the lighter wins
    assertThat(Math.abs(count[0] - count[1])).isLessThan(60);
    assertThat(b.open(0, 0)).isEqualTo(count[0]);

    EnvoyBalancer two = new EnvoyBalancer(2, 4, new SplittableRandom(3));
    int s = two.open();
    two.close(s);
    assertThatThrownBy(() -> two.close(s)).hasMessageContaining("closed twice");
  }

  @Test
  void eachReplicaKeepsItsOwnStateAndHearsOnlyOfItsOwnRequests() {
    List<FleetView> views = twoReplicasOfTwoPods();
    Gateway replicas =
        Gateway.create(
            "pointsman", views, new SplittableRandom(1), new SplittableRandom(2), Map.of(), 2);
    // without replication a picker knows of no other: it learns as if alone
    assertThat(replicas.scheduler(0).latencyModel().splitAmong()).isEqualTo(1);
    List<BenchRequest> requests = new ArrayList<>();
    for (long id = 0; id < 200; id++) {
      BenchRequest r =
          new BenchRequest(
              SimRequest.of(id, 0, List.of(new Segment(id + 1, 300)), 10), "sharegpt", false);
      requests.add(r);
      assertThat(replicas.route(r).outcome()).isEqualTo(Route.Outcome.ROUTED);
    }
    int[] live = new int[2];
    for (int k = 0; k < 2; k++) {
      InFlightTracker t = ((SchedulerPolicy) replicas.replica(k)).scheduler().inFlight();
      live[k] =
          t.load(FleetView.address(0)).liveRequests() + t.load(FleetView.address(1)).liveRequests();
    }
    assertThat(live[0] + live[1]).isEqualTo(200);
    assertThat(live[0]).isBetween(70, 130);

    // a scrape by replica 1 clears replica 1's pending picks only
    replicas.onScrape(1, 0);
    assertThat(pending(replicas, 1, 0)).isZero();
    assertThat(pending(replicas, 0, 0)).isPositive();

    // every end reaches the replica that routed the request, and nothing else
    for (BenchRequest r : requests) {
      replicas.onFinish(r, 0);
    }
    for (int k = 0; k < 2; k++) {
      InFlightTracker t = ((SchedulerPolicy) replicas.replica(k)).scheduler().inFlight();
      assertThat(t.load(FleetView.address(0)).liveRequests()).isZero();
      assertThat(t.load(FleetView.address(1)).liveRequests()).isZero();
    }
  }

  // a picker with kvEvents scoring (pointsman-kv-events) replicates its in-flight work and
  // learning as any picker does; only its prefix index comes from the engines instead
  @ParameterizedTest
  @ValueSource(strings = {"pointsman", PreciseIndexPolicy.NAME})
  void sharedReplicasSeeEachOthersPicksOneBatchAndTheWireLater(String policy) {
    List<FleetView> views = twoReplicasOfTwoPods();
    assertThat(
            Gateway.create(
                    policy,
                    views,
                    new SplittableRandom(1),
                    new SplittableRandom(2),
                    Map.of(),
                    2,
                    false)
                .shares())
        .isFalse();
    Gateway shared =
        Gateway.create(
            policy, views, new SplittableRandom(1), new SplittableRandom(2), Map.of(), 2, true);
    assertThat(shared.shares()).isTrue();
    // each learns latencies from its own responses, half the pool's, as the replicator tells a
    // picker whose view has two members
    assertThat(shared.scheduler(0).latencyModel().splitAmong()).isEqualTo(2);
    assertThat(shared.scheduler(1).tpotModel().splitAmong()).isEqualTo(2);
    cluster.runUntil(10);
    BenchRequest r =
        new BenchRequest(SimRequest.of(1, 10, List.of(new Segment(7, 300)), 10), "sharegpt", false);
    assertThat(shared.route(r).outcome()).isEqualTo(Route.Outcome.ROUTED);
    int router = live(shared, 0, false) == 1 ? 0 : 1;
    int peer = 1 - router;
    assertThat(live(shared, router, false)).isEqualTo(1);

    // batches every 5 ms (the picker's default): the batch due at 10 ms went out before the pick,
    // so the pick goes with the one at 15 ms and arrives 1 ms later
    cluster.runUntil(15.9);
    shared.advance();
    assertThat(live(shared, peer, true)).isZero();
    assertThat(queued(shared, peer)).isEmpty();
    cluster.runUntil(16);
    shared.advance();
    assertThat(live(shared, peer, true)).isEqualTo(1);
    assertThat(live(shared, peer, false)).isZero();
    assertThat(queued(shared, peer)).isNotEmpty();

    // the baselines ship no replication: they never share
    assertThat(
            Gateway.create(
                    "gie-default",
                    views,
                    new SplittableRandom(1),
                    new SplittableRandom(2),
                    Map.of(),
                    2,
                    true)
                .shares())
        .isFalse();
  }

  /**
   * Two replicas' views of one cluster of two H100 pods ({@link #cluster}), each with its own
   * scrapes.
   */
  private List<FleetView> twoReplicasOfTwoPods() {
    EngineConfig h100 = EngineConfig.of("p0", "base", GpuProfiles.builtIn().get("H100-80"));
    List<EngineConfig> configs = List.of(h100, EngineConfig.of("p1", "base", h100.gpu()));
    cluster = new VirtualCluster(configs, EngineListener.NONE);
    ClientRequests clients = new ClientRequests("base", Set.of(), TextMix.defaults());
    List<FleetView> views = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      views.add(new FleetView(configs, cluster, null, clients));
    }
    return views;
  }

  /** Requests live on any pod in replica {@code k}'s tracker: its own, or with its peers'. */
  private static int live(Gateway g, int k, boolean withPeers) {
    InFlightTracker t = g.scheduler(k).inFlight();
    int n = 0;
    for (int pod = 0; pod < 2; pod++) {
      String a = FleetView.address(pod);
      n += (withPeers ? t.load(a) : t.ownLoad(a)).liveRequests();
    }
    return n;
  }

  /** The endpoints replica {@code k} has learned queued prefill for. */
  private static Set<String> queued(Gateway g, int k) {
    Set<String> out = new HashSet<>(g.scheduler(k).queuedWork().export().keySet());
    out.remove(QueuedWork.POOL);
    return out;
  }

  private static int pending(Gateway replicas, int replica, int pod) {
    return ((SchedulerPolicy) replicas.replica(replica))
        .scheduler()
        .inFlight()
        .load(FleetView.address(pod))
        .pendingRequests();
  }
}
