package dev.pointsman.fleet.routing;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which clusters export each imported pool, as the InferencePoolImports in the fleet's cluster say:
 * a pool named here is placed only on the clusters named with it. A pool not named here (no import,
 * or an import that names no exporting cluster yet) may be placed on any cluster, as without
 * imports. Immutable: one writer publishes a new one, request threads read it without locks.
 *
 * @param exporters each imported pool's name and the names of the clusters that export it
 *     (including names the fleet has no cluster for: those it cannot route to)
 */
public record PoolExports(Map<String, Set<String>> exporters) {
  /** No import: every pool may be placed on every cluster. */
  public static final PoolExports NONE = new PoolExports(Map.of());

  public PoolExports {
    Map<String, Set<String>> copy = new HashMap<>();
    Objects.requireNonNull(exporters, "exporters")
        .forEach(
            (pool, clusters) -> {
              if (!clusters.isEmpty()) {
                copy.put(pool, Set.copyOf(clusters));
              }
            });
    exporters = Map.copyOf(copy);
  }

  /** Whether {@code cluster}'s pool {@code pool} may take a request. */
  public boolean allows(String pool, String cluster) {
    Set<String> clusters = exporters.get(pool);
    return clusters == null || clusters.contains(cluster);
  }
}
