package dev.pointsman.picker.scheduling;

import java.util.List;
import java.util.Objects;

/**
 * An immutable view of one pool at one moment: what the scheduler decides against.
 *
 * @param pool pool name
 * @param endpoints every endpoint of the pool, available or not, in a stable order
 * @param appProtocol what the pool's model servers speak
 */
public record PoolSnapshot(String pool, List<EndpointState> endpoints, AppProtocol appProtocol) {
  public PoolSnapshot {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(appProtocol, "appProtocol");
    endpoints = List.copyOf(endpoints);
  }

  /** A snapshot of a pool speaking HTTP/1.1. */
  public PoolSnapshot(String pool, List<EndpointState> endpoints) {
    this(pool, endpoints, AppProtocol.HTTP);
  }

  public static PoolSnapshot empty(String pool) {
    return new PoolSnapshot(pool, List.of());
  }
}
