package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A fleet of A100s whose clock a test moves, for the tests of how a baseline router leaves out a
 * failing pod and brings it back: requests with a prompt of their own, and how many of a batch of
 * answered requests went to one pod.
 */
final class HealthFixture {
  final VirtualCluster cluster;
  final FleetView fleet;
  private final int promptTokens;

  HealthFixture(int pods, int promptTokens) {
    GpuProfiles gpus = GpuProfiles.builtIn();
    List<EngineConfig> configs = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      configs.add(EngineConfig.of("p" + i, "base", gpus.get("A100-80")));
    }
    cluster = new VirtualCluster(configs, EngineListener.NONE);
    fleet =
        new FleetView(
            configs, cluster, null, new ClientRequests("base", Set.of(), TextMix.defaults()), null);
    this.promptTokens = promptTokens;
  }

  /** Request {@code id}, its prompt its own. */
  BenchRequest request(long id) {
    return new BenchRequest(
        SimRequest.of(id, 0, List.of(new Segment(id, promptTokens)), 10), "sharegpt", false);
  }

  /**
   * Of {@code n} requests, each answered at once (first token and end), how many went to {@code
   * pod}.
   */
  int sentTo(RoutingPolicy p, int pod, int n, long firstId) {
    int hits = 0;
    for (int i = 0; i < n; i++) {
      BenchRequest r = request(firstId + i);
      Route route = p.route(r);
      hits += route.pod() == pod ? 1 : 0;
      p.onFirstToken(r, route.pod());
      p.onFinish(r, route.pod());
    }
    return hits;
  }
}
