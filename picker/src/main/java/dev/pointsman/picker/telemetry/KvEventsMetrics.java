package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.kvevents.KvBlockIndex;
import dev.pointsman.picker.kvevents.KvEvent;
import dev.pointsman.picker.kvevents.KvEventSubscribers;
import dev.pointsman.picker.kvevents.KvEventsObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engines' KV-event streams as meters, per pool: events received, decode errors by reason,
 * gaps, replays by outcome, restarts, orphan and overflowed blocks, and blocks indexed per medium.
 */
public final class KvEventsMetrics implements KvEventsObserver {
  private final MeterRegistry registry;
  private final Set<String> gauged = ConcurrentHashMap.newKeySet();

  public KvEventsMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Registers the blocks-indexed gauges of {@code pool} once, one per medium. */
  public void register(String pool, KvEventSubscribers subscribers) {
    if (gauged.add(pool)) {
      for (boolean gpu : new boolean[] {true, false}) {
        Gauge.builder("pointsman.kv.events.blocks", subscribers, s -> s.blocks(pool, gpu))
            .description(
                "Engine KV blocks in the precise prefix index, from the engines' events, by"
                    + " where the engine holds them (GPU, or CPU when it offloads)")
            .tag("pool", pool)
            .tag("medium", gpu ? KvEvent.GPU : KvEvent.CPU)
            .register(registry);
      }
    }
  }

  @Override
  public void batch(String pool, int events, KvBlockIndex.Applied applied) {
    counter("pointsman.kv.events.received", "KV-cache events received from engines", pool)
        .increment(events);
    if (applied.orphans() > 0) {
      counter(
              "pointsman.kv.events.orphans",
              "Stored blocks whose parent the index did not know, skipped",
              pool)
          .increment(applied.orphans());
    }
    if (applied.overflows() > 0) {
      counter(
              "pointsman.kv.events.overflows",
              "Blocks forgotten because an endpoint reached the index's bound",
              pool)
          .increment(applied.overflows());
    }
  }

  @Override
  public void decodeError(String pool, String reason) {
    Counter.builder("pointsman.kv.events.decode.errors")
        .description("KV-event messages dropped as malformed, by reason")
        .tag("pool", pool)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  @Override
  public void unknownEvents(String pool, int events) {
    decodeError(pool, "unknown_event");
  }

  @Override
  public void gap(String pool, long missed) {
    counter("pointsman.kv.events.gaps", "Gaps in an engine's event sequence numbers", pool)
        .increment();
  }

  @Override
  public void replay(String pool, String outcome) {
    Counter.builder("pointsman.kv.events.replays")
        .description("Replays of missed KV-event batches, by outcome")
        .tag("pool", pool)
        .tag("outcome", outcome)
        .register(registry)
        .increment();
  }

  @Override
  public void restart(String pool) {
    counter(
            "pointsman.kv.events.restarts",
            "Engine event sequences that went backwards (engine restarts)",
            pool)
        .increment();
  }

  private Counter counter(String name, String description, String pool) {
    return Counter.builder(name).description(description).tag("pool", pool).register(registry);
  }
}
