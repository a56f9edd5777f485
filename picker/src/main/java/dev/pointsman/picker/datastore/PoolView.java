package dev.pointsman.picker.datastore;

import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A built snapshot of one pool with its counts, valid while the pool's version is unchanged and the
 * clock has not reached the next availability or staleness transition.
 */
record PoolView(
    PoolSnapshot snapshot,
    int available,
    int stale,
    long version,
    long builtAtNanos,
    long validForNanos) {

  boolean validAt(long version, long now) {
    return this.version == version && now - builtAtNanos < validForNanos;
  }

  /** Builds the view in O(endpoints), reading only immutable values. */
  static PoolView build(
      PoolDefinition pool,
      Map<String, Health> health,
      long version,
      long now,
      Health.Thresholds thresholds) {
    List<EndpointState> states = new ArrayList<>(pool.endpoints().size());
    int available = 0;
    int stale = 0;
    long validFor = Long.MAX_VALUE;
    for (Endpoint endpoint : pool.endpoints()) {
      Health h = health.getOrDefault(endpoint.address(), Health.NEW);
      boolean up = h.available(now, thresholds);
      available += up ? 1 : 0;
      stale += h.stale(now, thresholds) ? 1 : 0;
      validFor = Math.min(validFor, h.unchangedFor(now, thresholds));
      states.add(new EndpointState(endpoint, h.metrics(), up));
    }
    return new PoolView(
        new PoolSnapshot(pool.name(), states, pool.appProtocol()),
        available,
        stale,
        version,
        now,
        validFor);
  }
}
