package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.SpeedProfile;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetViewTest {

  @Test
  void scrapesReachPoliciesAsTheVllmScraperWouldSeeThem() {
    EngineConfig l4 = EngineConfig.of("p0", "base", GpuProfiles.builtIn().get("L4"));
    VirtualCluster cluster = new VirtualCluster(List.of(l4), EngineListener.NONE);
    FleetView fleet = new FleetView(List.of(l4), "base", cluster);
    assertThat(fleet.metrics(0)).isEqualTo(EndpointMetrics.UNKNOWN);
    assertThat(fleet.speed(0).name()).isEqualTo("L4");
    assertThat(fleet.pool().endpoints().get(0).endpoint().label(SpeedProfile.GPU_LABEL))
        .isEqualTo("L4");

    cluster.submit(new SimRequest(1, 0, List.of(new Segment(1, 900)), 50, "ad-1", 99), 0);
    cluster.submit(new SimRequest(2, 0, List.of(new Segment(2, 900)), 50, "", 98), 0);
    cluster.runUntil(1500);
    fleet.applyScrape(0, cluster.snapshot(0));

    EndpointMetrics m = fleet.metrics(0);
    assertThat(m.kvCapacityTokens()).isEqualTo(l4.gpu().kvTokens());
    assertThat(m.runningRequests() + m.waitingRequests()).isEqualTo(2);
    assertThat(m.kvCacheUsage()).isPositive();
    assertThat(m.maxLoras()).isEqualTo(4);
    assertThat(m.runningAdapters()).containsExactly("ad-1");
    assertThat(m.scrapedAtNanos()).isEqualTo(1_500_000_000L);

    cluster.runUntilIdle();
    fleet.applyScrape(0, cluster.snapshot(0));
    // idle: the adapter is still resident on the pod, but vLLM's metric does not list it
    assertThat(cluster.snapshot(0).residentAdapters()).contains("ad-1");
    assertThat(fleet.metrics(0).runningAdapters()).isEmpty();
    assertThat(fleet.metrics(0).waitingAdapters()).isEmpty();
  }
}
