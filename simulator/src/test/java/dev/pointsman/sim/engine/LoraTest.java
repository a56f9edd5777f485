package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoraTest {
  private static EngineConfig config(int gpuSlots) {
    return Harness.config("H100-80").withLoras(gpuSlots, 8);
  }

  private static SimRequest lora(long id, double at, String adapter, int output) {
    return new SimRequest(id, at, List.of(new Segment(id, 100)), output, adapter, ~id);
  }

  @Test
  void coldAdapterPaysItsLoadTimeOnce() {
    Map<Long, RequestResult> r =
        Harness.run(config(2), List.of(lora(1, 0, "a", 5), lora(2, 3000, "a", 5)));
    double base = Harness.run(config(2), List.of(lora(1, 0, "", 5))).get(1L).ttftMs();

    assertThat(r.get(1L).ttftMs() - base).isCloseTo(1000, within(1.0));
    assertThat(r.get(2L).ttftMs()).isLessThan(base * 1.1);
  }

  @Test
  void adapterEvictedToCpuReloadsWarm() {
    // one GPU slot: a, then b (evicts idle a), then a again comes from the CPU cache
    Harness.Recorder rec = new Harness.Recorder();
    VirtualCluster cluster = new VirtualCluster(List.of(config(1)), rec);
    cluster.submit(lora(1, 0, "a", 2), 0);
    cluster.runUntil(5000);
    cluster.submit(lora(2, 5000, "b", 2), 0);
    cluster.runUntil(10000);
    cluster.submit(lora(3, 10000, "a", 2), 0);
    cluster.runUntilIdle();

    assertThat(rec.results.get(3L).ttftMs() - rec.results.get(2L).ttftMs())
        .isCloseTo(250 - 1000, within(1.0));
    assertThat(cluster.snapshot(0).counters().loraLoads()).isEqualTo(3);
  }

  @Test
  void adapterInUseIsNeverEvicted() {
    // given one slot, a long request on a, then a request on b
    Harness.Recorder rec = new Harness.Recorder();
    VirtualCluster cluster = new VirtualCluster(List.of(config(1)), rec);
    cluster.submit(lora(1, 0, "a", 400), 0);
    cluster.runUntil(1500);
    cluster.submit(lora(2, 1500, "b", 2), 0);
    cluster.runUntil(2500);

    // then a stays resident while running and b waits for it to finish
    PodSnapshot s = cluster.snapshot(0);
    assertThat(s.residentAdapters()).containsExactly("a");
    assertThat(s.runningAdapters()).containsExactly("a");
    assertThat(s.waitingAdapters()).containsExactly("b");
    cluster.runUntilIdle();
    assertThat(rec.results.get(2L).firstTokenMs())
        .isGreaterThan(rec.results.get(1L).finishMs() + 250);
  }

  @Test
  void requestWaitingForItsAdapterDoesNotBlockOthers() {
    Harness.Recorder rec = new Harness.Recorder();
    VirtualCluster cluster = new VirtualCluster(List.of(config(2)), rec);
    cluster.submit(lora(1, 0, "cold", 2), 0);
    cluster.submit(lora(2, 1, "", 2), 0);
    cluster.runUntilIdle();

    assertThat(rec.results.get(2L).firstTokenMs()).isLessThan(100);
    assertThat(rec.results.get(1L).firstTokenMs()).isGreaterThan(1000);
  }

  @Test
  void eachDistinctAdapterInTheBatchSlowsTheStep() {
    GpuProfile h = Harness.PROFILES.get("H100-80");
    double plain = h.costs().stepMs(0, 4, 1000, 1000, 0, 4, 0);
    double two = h.costs().stepMs(0, 4, 1000, 1000, 0, 4, 2);

    assertThat(two / plain).isCloseTo(1.07, within(1e-9));
  }
}
