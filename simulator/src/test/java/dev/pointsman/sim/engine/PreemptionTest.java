package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreemptionTest {

  @Test
  void contextBeyondCapacityPreemptsTheNewestAndEveryRequestStillCompletes() {
    // given 64 blocks (1024 tokens) and four requests that grow to 500 tokens each
    EngineConfig c = EngineConfig.of("p", "m", Harness.tiny(64)).withApiOverheadMs(0);
    List<SimRequest> requests = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      requests.add(Harness.request(i, i, 200, 300));
    }

    Harness.Recorder rec = new Harness.Recorder();
    VirtualCluster cluster = new VirtualCluster(List.of(c), rec);
    requests.forEach(r -> cluster.submit(r, 0));
    double maxUsage = 0;
    while (!cluster.pod(0).isIdle()) {
      cluster.runUntil(cluster.now() + 5);
      maxUsage = Math.max(maxUsage, cluster.snapshot(0).kvUsage());
    }
    Map<Long, RequestResult> r = rec.results;

    assertThat(r).hasSize(4);
    assertThat(cluster.snapshot(0).counters().preemptions()).isPositive();
    assertThat(r.values().stream().mapToInt(RequestResult::preemptions).sum()).isPositive();
    assertThat(r.get(0L).preemptions()).isZero();
    assertThat(maxUsage).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
    assertThat(cluster.snapshot(0).usedBlocks()).isZero();
  }

  @Test
  void requestLargerThanTheCacheIsRejected() {
    Engine e = new Engine(EngineConfig.of("p", "m", Harness.tiny(8)), 0, EngineListener.NONE);

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> e.submit(Harness.request(1, 0, 100, 100)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("200 tokens (expected <= KV capacity 128)");
  }
}
