package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * Per-pool gauges, read from the datastore when {@code /metrics} is scraped. The datastore lives as
 * long as the registry, so the gauges' weak references stay valid.
 */
public final class PoolGauges {
  private final MeterRegistry registry;
  private final Datastore store;
  private final InFlightTracker inFlight;

  public PoolGauges(MeterRegistry registry, Datastore store, InFlightTracker inFlight) {
    this.registry = registry;
    this.store = store;
    this.inFlight = inFlight;
  }

  /** Registers the gauges of one pool. Registering the same pool again is harmless. */
  public void register(String pool) {
    gauge(
        "inference.pool.ready.pods",
        pool,
        "Endpoints able to take traffic",
        s -> s.available(pool));
    gauge("pointsman.pool.endpoints", pool, "Endpoints known", s -> s.endpoints(pool));
    gauge(
        "pointsman.pool.stale.endpoints", pool, "Endpoints with stale metrics", s -> s.stale(pool));
    gauge(
        "inference.pool.average.kv.cache.utilization",
        pool,
        "Mean KV-cache use of ready endpoints",
        s -> average(pool, e -> e.metrics().kvUsageOrZero()));
    gauge(
        "inference.pool.average.queue.size",
        pool,
        "Mean waiting requests of ready endpoints",
        s -> average(pool, e -> e.metrics().waitingRequests()));
    gauge(
        "pointsman.pool.inflight.requests",
        pool,
        "Requests routed to the pool and not yet finished",
        s -> inFlightIn(pool));
  }

  private void gauge(String name, String pool, String description, ToDoubleFunction<Datastore> f) {
    Gauge.builder(name, store, f).description(description).tag("name", pool).register(registry);
  }

  private double average(String pool, ToDoubleFunction<EndpointState> f) {
    return store.snapshot(pool).endpoints().stream()
        .filter(EndpointState::available)
        .mapToDouble(f)
        .average()
        .orElse(0);
  }

  private double inFlightIn(String pool) {
    return store.snapshot(pool).endpoints().stream()
        .mapToLong(e -> inFlight.ownLoad(e.address()).liveRequests())
        .sum();
  }
}
