package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scrape.Signal;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Per-endpoint gauges of what its scrapes lack: {@code pointsman_endpoint_signal_missing{pool,
 * endpoint, signal}} (1 while the engine's metrics lack the signal and the picker runs on a
 * fallback, else 0) and {@code pointsman_endpoint_sleeping{pool, endpoint}} (1 while the engine
 * answers but sleeps, so it is not routed). Labelled by endpoint address — bounded by the fleet
 * (six series per endpoint), read from the datastore when {@code /metrics} is scraped, and removed
 * with the endpoint. Thread-safe.
 */
public final class EndpointGauges {
  private final MeterRegistry registry;
  private final Datastore store;
  private final Map<List<String>, List<Meter>> meters = new HashMap<>();

  public EndpointGauges(MeterRegistry registry, Datastore store) {
    this.registry = registry;
    this.store = store;
  }

  /** Registers the gauges of every current endpoint and removes those of endpoints gone. */
  public synchronized void update() {
    Set<List<String>> current = new HashSet<>();
    for (String pool : store.pools()) {
      for (Endpoint e : store.pool(pool).map(p -> p.endpoints()).orElse(List.of())) {
        List<String> key = List.of(pool, e.address());
        current.add(key);
        meters.computeIfAbsent(key, k -> register(pool, e.address()));
      }
    }
    meters
        .entrySet()
        .removeIf(
            entry -> {
              boolean gone = !current.contains(entry.getKey());
              if (gone) {
                entry.getValue().forEach(registry::remove);
              }
              return gone;
            });
  }

  private List<Meter> register(String pool, String address) {
    List<Meter> out = new ArrayList<>();
    for (Signal signal : Signal.values()) {
      out.add(
          Gauge.builder(
                  "pointsman.endpoint.signal.missing",
                  store,
                  s -> s.report(address).missing().contains(signal) ? 1 : 0)
              .description("1 while the endpoint's metrics lack the signal (a fallback is used)")
              .tag("pool", pool)
              .tag("endpoint", address)
              .tag("signal", signal.label())
              .register(registry));
    }
    out.add(
        Gauge.builder(
                "pointsman.endpoint.sleeping", store, s -> s.report(address).sleeping() ? 1 : 0)
            .description("1 while the endpoint's engine answers but sleeps (not routed)")
            .tag("pool", pool)
            .tag("endpoint", address)
            .register(registry));
    return out;
  }
}
