package dev.pointsman.inference.model;

import java.util.List;
import java.util.Objects;

/**
 * Where a requested model is served.
 *
 * @param requestedModel the model id the client sent, or null if it sent none
 * @param canonicalModel the configured (or discovered) name, aliases resolved
 * @param baseModel the base model: the canonical model itself unless it is an adapter
 * @param adapter the LoRA adapter name, or null for a base model
 * @param pools every pool serving it, with canary weights; never empty
 * @param sheddable whether its requests may be shed when the pool is saturated
 * @param sheddable whether the model's requests may be shed when its pool is saturated
 */
public record Resolution(
    String requestedModel,
    String canonicalModel,
    String baseModel,
    String adapter,
    List<PoolTarget> pools,
    boolean sheddable) {

  public Resolution(
      String requestedModel,
      String canonicalModel,
      String baseModel,
      String adapter,
      List<PoolTarget> pools) {
    this(requestedModel, canonicalModel, baseModel, adapter, pools, false);
  }

  public Resolution {
    Objects.requireNonNull(canonicalModel, "canonicalModel");
    Objects.requireNonNull(baseModel, "baseModel");
    pools = List.copyOf(pools);
    if (pools.isEmpty()) {
      throw new IllegalArgumentException("pools: [] (expected at least one pool)");
    }
  }

  /** Whether the model is a LoRA adapter. */
  public boolean isAdapter() {
    return adapter != null;
  }
}
