package dev.pointsman.picker.datastore;

import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.MetricsLocation;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A pool's membership: the endpoints serving one model with one engine.
 *
 * @param name pool name
 * @param engine the engine every endpoint runs
 * @param endpoints the endpoints, each naming this pool, each address once; order is kept in
 *     snapshots
 * @param appProtocol what the endpoints speak (HTTP/1.1 or h2c), carried into every snapshot
 * @param metrics where the endpoints serve their metrics, when not at the engine's default
 */
public record PoolDefinition(
    String name,
    Engine engine,
    List<Endpoint> endpoints,
    AppProtocol appProtocol,
    MetricsLocation metrics) {
  public PoolDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(appProtocol, "appProtocol");
    Objects.requireNonNull(metrics, "metrics");
    if (name.isBlank()) {
      throw new IllegalArgumentException("pool name: '" + name + "' (expected non-blank)");
    }
    endpoints = List.copyOf(endpoints);
    Set<String> seen = new HashSet<>();
    for (Endpoint e : endpoints) {
      if (!e.pool().equals(name)) {
        throw new IllegalArgumentException(
            "pool '"
                + name
                + "': endpoint "
                + e.address()
                + " names pool '"
                + e.pool()
                + "' (expected '"
                + name
                + "')");
      }
      if (!seen.add(e.address())) {
        throw new IllegalArgumentException(
            "pool '" + name + "': endpoint " + e.address() + " listed twice (expected once)");
      }
    }
  }

  /** A pool serving metrics where its engine does by default. */
  public PoolDefinition(
      String name, Engine engine, List<Endpoint> endpoints, AppProtocol appProtocol) {
    this(name, engine, endpoints, appProtocol, MetricsLocation.DEFAULT);
  }

  /** A pool speaking HTTP/1.1. */
  public PoolDefinition(String name, Engine engine, List<Endpoint> endpoints) {
    this(name, engine, endpoints, AppProtocol.HTTP);
  }
}
