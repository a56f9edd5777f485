package dev.pointsman.picker.scheduling;

import java.util.List;
import java.util.Objects;

/**
 * An immutable view of one pool at one moment: what the scheduler decides against.
 *
 * @param pool pool name
 * @param endpoints every endpoint of the pool, available or not, in a stable order
 */
public record PoolSnapshot(String pool, List<EndpointState> endpoints) {
  public PoolSnapshot {
    Objects.requireNonNull(pool, "pool");
    endpoints = List.copyOf(endpoints);
  }

  public static PoolSnapshot empty(String pool) {
    return new PoolSnapshot(pool, List.of());
  }
}
