package dev.pointsman.picker.routing;

import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The active scheduling policy of each pool. Operators replace a pool's policy at runtime (config
 * reload, CRD); each decision reads the policy in force when it starts, so a change never disturbs
 * a request in flight. Thread-safe: one immutable map behind one reference.
 */
public final class PolicyRegistry {
  private final SchedulingPolicy fallback;
  private final AtomicReference<Map<String, SchedulingPolicy>> byPool =
      new AtomicReference<>(Map.of());

  public PolicyRegistry(SchedulingPolicy fallback) {
    this.fallback = fallback;
  }

  /** A registry whose fallback is Pointsman's default policy. */
  public static PolicyRegistry withDefaults() {
    return new PolicyRegistry(Plugins.build(PolicyConfig.defaults()));
  }

  public SchedulingPolicy policy(String pool) {
    return byPool.get().getOrDefault(pool, fallback);
  }

  /** Sets (or with null, clears back to the default) one pool's policy. */
  public void set(String pool, SchedulingPolicy policy) {
    byPool.updateAndGet(
        current -> {
          Map<String, SchedulingPolicy> next = new HashMap<>(current);
          if (policy == null) {
            next.remove(pool);
          } else {
            next.put(pool, policy);
          }
          return Map.copyOf(next);
        });
  }
}
