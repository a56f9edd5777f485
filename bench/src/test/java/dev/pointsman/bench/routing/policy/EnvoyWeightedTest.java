package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EnvoyWeightedTest {
  private final GpuProfiles gpus = GpuProfiles.builtIn();

  private FleetView fleet(double[] capacities, String... profiles) {
    List<EngineConfig> configs = new ArrayList<>();
    for (int i = 0; i < profiles.length; i++) {
      configs.add(EngineConfig.of("p" + i, "base", gpus.get(profiles[i])));
    }
    return new FleetView(
        configs,
        new VirtualCluster(configs, EngineListener.NONE),
        null,
        new ClientRequests("base", Set.of(), TextMix.defaults()),
        capacities);
  }

  private static BenchRequest request(long id) {
    return new BenchRequest(
        SimRequest.of(id, 0, List.of(new Segment(id, 100)), 10), "sharegpt", false);
  }

  @Test
  void weightsComeFromMeasuredCapacityScaledToTheFastestPod() {
    // capacity (req/s) -> Envoy weight: the S1 calibration's H100-80, A100-80 and L4 figures
    double[][] capacity = {{58.96, 24.24, 4.38}, {1, 1}, {10, 0}};
    int[][] weights = {{128, 53, 10}, {128, 128}, {128, 1}};
    for (int i = 0; i < capacity.length; i++) {
      assertThat(EnvoyWeights.of(capacity[i])).as("case %d", i).containsExactly(weights[i]);
    }
    assertThatThrownBy(() -> EnvoyWeights.of(new double[] {1, Double.NaN}))
        .hasMessageContaining("capacity: NaN");
  }

  @Test
  void weightedRoundRobinSendsExactlyInProportionToTheWeights() {
    RoutingPolicy p =
        Policies.create("weighted-round-robin", fleet(new double[] {4, 1}, "H100-80", "L4"), null);
    int[] counts = new int[2];
    // weights 128 and 32: one cycle of the EDF schedule is 160 picks
    for (int i = 0; i < 160; i++) {
      counts[p.route(request(i)).pod()]++;
    }
    assertThat(counts).containsExactly(128, 32);
  }

  @Test
  void weightedLeastRequestLowersAPodsWeightWithItsActiveRequests() {
    RoutingPolicy p =
        Policies.create(
            "weighted-least-request",
            fleet(new double[] {2, 1}, "H100-80", "A100-80"),
            new SplittableRandom(1));
    int[] active = new int[2];
    int[] podOf = new int[300];
    // nothing finishes: each pick reschedules the pod (a + 1) ÷ weight later, a its active requests
    // then, so a pod reaches a requests after a(a + 1) ÷ 2w; equal times give a0 : a1 = √(w0 : w1),
    // √2 here, where static weights (weighted round-robin) would give 2
    for (int i = 0; i < 300; i++) {
      podOf[i] = p.route(request(i)).pod();
      active[podOf[i]]++;
    }
    assertThat((double) active[0] / active[1])
        .isCloseTo(Math.sqrt(2), org.assertj.core.data.Offset.offset(0.05));
    // once pod 0's requests all finish its weight is back to 128 and it wins the next picks
    for (int i = 0; i < 300; i++) {
      if (podOf[i] == 0) {
        p.onFinish(request(i), 0);
      }
    }
    List<Integer> next = new ArrayList<>();
    for (int i = 300; i < 305; i++) {
      next.add(p.route(request(i)).pod());
    }
    assertThat(next).contains(0);
  }

  @Test
  void withEqualWeightsWeightedLeastRequestIsEnvoysTwoChoices() {
    FleetView same = fleet(null, "A100-80", "A100-80", "A100-80");
    RoutingPolicy p = Policies.create("weighted-least-request", same, new SplittableRandom(3));
    int[] active = new int[3];
    for (int i = 0; i < 90; i++) {
      active[p.route(request(i)).pod()]++;
    }
    // P2C keeps every pod within a few requests of the others
    for (int a : active) {
      assertThat(a).isBetween(25, 35);
    }
  }
}
