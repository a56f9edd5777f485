package dev.pointsman.picker.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.kvevents.KvBlockIndex;
import dev.pointsman.picker.kvevents.KvEvent;
import dev.pointsman.picker.kvevents.KvEventSubscribers;
import dev.pointsman.picker.kvevents.KvEventsSettings;
import dev.pointsman.picker.scheduling.Endpoint;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KvEventsMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final KvEventsMetrics metrics = new KvEventsMetrics(registry);

  @Test
  void countsPerPoolWithBoundedReasons() {
    metrics.batch("llama", 3, new KvBlockIndex.Applied(2, 1, 1, 0, 0));
    metrics.decodeError("llama", "msgpack");
    metrics.decodeError("llama", "msgpack");
    metrics.unknownEvents("llama", 5);
    metrics.gap("llama", 4);
    metrics.replay("llama", "complete");
    metrics.restart("llama");

    assertThat(registry.get("pointsman.kv.events.received").tag("pool", "llama").counter().count())
        .isEqualTo(3);
    assertThat(registry.get("pointsman.kv.events.orphans").counter().count()).isEqualTo(1);
    assertThat(registry.find("pointsman.kv.events.overflows").counter()).isNull();
    assertThat(
            registry
                .get("pointsman.kv.events.decode.errors")
                .tag("reason", "msgpack")
                .counter()
                .count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("pointsman.kv.events.decode.errors")
                .tag("reason", "unknown_event")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(registry.get("pointsman.kv.events.gaps").counter().count()).isEqualTo(1);
    assertThat(
            registry
                .get("pointsman.kv.events.replays")
                .tag("outcome", "complete")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(registry.get("pointsman.kv.events.restarts").counter().count()).isEqualTo(1);
  }

  private double blocks(String medium) {
    return registry
        .get("pointsman.kv.events.blocks")
        .tag("pool", "llama")
        .tag("medium", medium)
        .gauge()
        .value();
  }

  @Test
  void theBlocksGaugeReadsThePoolsSubscribedEndpoints() {
    KvBlockIndex index = new KvBlockIndex(100);
    try (KvEventSubscribers subscribers =
        new KvEventSubscribers(index, metrics, System::nanoTime)) {
      // an endpoint with no engine behind it: the subscription waits quietly, no replay port
      subscribers.update(
          "llama",
          KvEventsSettings.on(5557, 0),
          List.of(
              new Endpoint("127.0.0.1:8000", "llama", Map.of(KvEventsSettings.PORT_LABEL, "1"))));
      metrics.register("llama", subscribers);
      metrics.register("llama", subscribers);
      KvEvent stored =
          new KvEvent.BlockStored(new long[] {1, 2}, null, new int[] {1, 2, 3, 4}, 2, null, null);
      index.apply("127.0.0.1:8000", List.of(stored));
      index.apply("10.9.9.9:8000", List.of(stored)); // not in the pool

      assertThat(blocks("GPU")).isEqualTo(2);
      assertThat(blocks("CPU")).isZero();
      // the engine offloads both blocks, then evicts one from the GPU
      index.apply(
          "127.0.0.1:8000",
          List.of(
              new KvEvent.BlockStored(new long[] {1, 2}, null, new int[0], 2, null, KvEvent.CPU),
              new KvEvent.BlockRemoved(new long[] {2}, KvEvent.GPU)));
      assertThat(blocks("GPU")).isEqualTo(1);
      assertThat(blocks("CPU")).isEqualTo(2);
      assertThat(registry.find("pointsman.kv.events.blocks").gauges()).hasSize(2);
    }
  }
}
