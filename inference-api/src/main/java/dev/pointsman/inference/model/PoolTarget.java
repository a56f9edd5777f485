package dev.pointsman.inference.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * An inference pool serving a model, with a relative weight for canary splits.
 *
 * @param pool the pool name
 * @param weight the relative share of traffic, finite and {@code > 0}; 1 when not configured
 */
public record PoolTarget(String pool, double weight) {
  public PoolTarget {
    if (pool == null || pool.isBlank()) {
      throw new IllegalArgumentException("pool: " + Names.quote(pool) + " (expected a pool name)");
    }
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("weight: " + Names.number(weight) + " (expected > 0)");
    }
  }

  /** The YAML/JSON creator: a missing weight means 1. */
  @JsonCreator
  static PoolTarget fromConfig(
      @JsonProperty("pool") String pool, @JsonProperty("weight") Double weight) {
    return new PoolTarget(pool, weight == null ? 1.0 : weight);
  }

  /** A target of weight 1. */
  public static PoolTarget of(String pool) {
    return new PoolTarget(pool, 1.0);
  }

  /**
   * Chooses a target with probability proportional to its weight.
   *
   * @param targets the candidates, not empty
   * @param u a uniform draw in [0, 1) supplied by the caller
   */
  public static PoolTarget choose(List<PoolTarget> targets, double u) {
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("targets: [] (expected at least one pool)");
    }
    if (!(u >= 0 && u < 1)) {
      throw new IllegalArgumentException("u: " + u + " (expected in [0, 1))");
    }
    double total = 0;
    for (PoolTarget target : targets) {
      total += target.weight;
    }
    double x = u * total;
    double cumulative = 0;
    for (PoolTarget target : targets) {
      cumulative += target.weight;
      if (x < cumulative) {
        return target;
      }
    }
    return targets.getLast();
  }
}
