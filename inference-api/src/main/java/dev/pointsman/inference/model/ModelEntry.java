package dev.pointsman.inference.model;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A served model in the configuration: a base model, or a LoRA adapter of one.
 *
 * @param name the model id clients send
 * @param aliases other ids that mean this model
 * @param baseModel the base model's name if this is an adapter, else null
 * @param pools the pools serving it; for an adapter, empty means the base model's pools
 * @param sheddable whether this model's requests may be shed (429) when its pool is saturated;
 *     null: inherited by an adapter from its base model, otherwise false
 */
public record ModelEntry(
    String name,
    List<String> aliases,
    String baseModel,
    List<PoolTarget> pools,
    Boolean sheddable) {

  /** An entry whose requests are never shed (the default). */
  public ModelEntry(String name, List<String> aliases, String baseModel, List<PoolTarget> pools) {
    this(name, aliases, baseModel, pools, null);
  }

  public ModelEntry {
    if (Names.isBlank(name)) {
      throw new IllegalArgumentException("name: " + Names.quote(name) + " (expected a model name)");
    }
    aliases = aliases == null ? List.of() : List.copyOf(aliases);
    pools = pools == null ? List.of() : List.copyOf(pools);
    if (baseModel != null && (baseModel.isBlank() || baseModel.equals(name))) {
      throw new IllegalArgumentException(
          "baseModel: " + Names.quote(baseModel) + " (expected another model's name, or none)");
    }
    if (baseModel == null && pools.isEmpty()) {
      throw new IllegalArgumentException("pools: [] (expected at least one pool for a base model)");
    }
    checkAliases(name, aliases);
    checkPools(pools);
  }

  /** A base model served by the given pools. */
  public static ModelEntry base(String name, List<PoolTarget> pools) {
    return new ModelEntry(name, List.of(), null, pools);
  }

  /** An adapter of {@code baseModel} served where its base model is. */
  public static ModelEntry adapter(String name, String baseModel) {
    return new ModelEntry(name, List.of(), baseModel, List.of());
  }

  /** Whether this entry is a LoRA adapter. */
  public boolean isAdapter() {
    return baseModel != null;
  }

  private static void checkAliases(String name, List<String> aliases) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < aliases.size(); i++) {
      String alias = aliases.get(i);
      if (Names.isBlank(alias) || alias.equals(name) || !seen.add(alias)) {
        throw new IllegalArgumentException(
            "aliases[" + i + "]: " + Names.quote(alias) + " (expected a distinct non-empty name)");
      }
    }
  }

  private static void checkPools(List<PoolTarget> pools) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < pools.size(); i++) {
      if (pools.get(i) == null) {
        throw new IllegalArgumentException("pools[" + i + "]: null (expected a pool target)");
      }
      if (!seen.add(pools.get(i).pool())) {
        throw new IllegalArgumentException(
            "pools[" + i + "].pool: " + Names.quote(pools.get(i).pool()) + " (listed twice)");
      }
    }
  }
}
