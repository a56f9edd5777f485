package dev.pointsman.picker.k8s;

import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.ModelRoute;
import dev.pointsman.picker.k8s.api.ModelRouteSpec;
import dev.pointsman.picker.k8s.api.PoolRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * ModelRoutes (and the {@code pointsman.dev/models} annotation of pools no route names) to the body
 * router's {@link ModelsConfig}.
 *
 * <p>Routes are taken oldest first; a route whose model, alias or adapter id is already taken, or
 * whose spec is invalid, is left out and its verdict says why; the others still serve. A pool
 * weight of 0 drains that pool. A model named only in an InferencePool's {@code
 * pointsman.dev/models} annotation is served by every pool naming it, with equal weights. Pure.
 */
final class ModelCatalog {
  record Outcome(ModelsConfig config, Map<String, Verdict> verdicts) {}

  private ModelCatalog() {}

  static Outcome build(Collection<ModelRoute> routes, Collection<InferencePool> pools) {
    List<ModelRoute> ordered = new ArrayList<>(routes);
    ordered.sort(Objects2.OLDEST_FIRST);
    Set<String> poolNames = pools.stream().map(Objects2::name).collect(Collectors.toSet());
    List<ModelEntry> entries = new ArrayList<>();
    Map<String, String> owners = new HashMap<>();
    Map<String, Verdict> verdicts = new LinkedHashMap<>();
    String defaultModel = null;
    String defaultOwner = null;
    for (ModelRoute route : ordered) {
      String name = Objects2.name(route);
      long generation = Objects2.generation(route);
      try {
        List<ModelEntry> mine = entries(route.getSpec());
        claim(mine, owners, name);
        new ModelsConfig(concat(entries, mine), null);
        entries.addAll(mine);
        String note = "";
        if (Boolean.TRUE.equals(route.getSpec().defaultModel())) {
          if (defaultModel == null) {
            defaultModel = route.getSpec().model();
            defaultOwner = name;
          } else {
            note = "; defaultModel ignored: ModelRoute '" + defaultOwner + "' is the default";
          }
        }
        verdicts.put(
            name, Verdict.accepted(generation, accepted(route.getSpec(), poolNames) + note));
      } catch (IllegalArgumentException e) {
        verdicts.put(name, Verdict.invalid(generation, e.getMessage()));
      }
    }
    entries.addAll(annotated(pools, owners));
    return new Outcome(new ModelsConfig(entries, defaultModel), verdicts);
  }

  private static List<ModelEntry> entries(ModelRouteSpec spec) {
    if (spec == null) {
      throw new IllegalArgumentException("spec: absent (expected an object)");
    }
    if (spec.model() == null || spec.model().isBlank()) {
      throw new IllegalArgumentException(
          "spec.model: '" + spec.model() + "' (expected a model name)");
    }
    List<PoolTarget> targets = targets(spec.pools());
    List<ModelEntry> out = new ArrayList<>();
    try {
      out.add(
          new ModelEntry(
              spec.model(),
              spec.aliases(),
              null,
              targets,
              "Sheddable".equalsIgnoreCase(spec.criticality())));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("spec." + e.getMessage(), e);
    }
    List<String> adapters = spec.adapters() == null ? List.of() : spec.adapters();
    for (int i = 0; i < adapters.size(); i++) {
      String adapter = adapters.get(i);
      if (adapter == null || adapter.isBlank() || adapter.equals(spec.model())) {
        throw new IllegalArgumentException(
            "spec.adapters[" + i + "]: '" + adapter + "' (expected a LoRA adapter name)");
      }
      out.add(ModelEntry.adapter(adapter, spec.model()));
    }
    return out;
  }

  private static List<PoolTarget> targets(List<PoolRef> pools) {
    if (pools == null || pools.isEmpty()) {
      throw new IllegalArgumentException("spec.pools: [] (expected at least one pool)");
    }
    List<PoolTarget> out = new ArrayList<>();
    for (int i = 0; i < pools.size(); i++) {
      PoolRef ref = pools.get(i);
      String path = "spec.pools[" + i + "]";
      if (ref == null || ref.name() == null || ref.name().isBlank()) {
        throw new IllegalArgumentException(path + ".name: absent (expected an InferencePool name)");
      }
      int weight = ref.weight() == null ? 1 : ref.weight();
      if (weight < 0 || weight > 100) {
        throw new IllegalArgumentException(path + ".weight: " + weight + " (expected 0..100)");
      }
      if (weight > 0) {
        out.add(new PoolTarget(ref.name(), weight));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          "spec.pools: every weight is 0 (expected at least one pool with weight > 0)");
    }
    return out;
  }

  private static void claim(List<ModelEntry> mine, Map<String, String> owners, String route) {
    Map<String, String> ids = new LinkedHashMap<>();
    ModelEntry base = mine.get(0);
    ids.put(base.name(), "spec.model");
    for (int i = 0; i < base.aliases().size(); i++) {
      ids.putIfAbsent(base.aliases().get(i), "spec.aliases[" + i + "]");
    }
    for (int i = 1; i < mine.size(); i++) {
      if (ids.putIfAbsent(mine.get(i).name(), "spec.adapters[" + (i - 1) + "]") != null) {
        throw new IllegalArgumentException(
            "spec.adapters[" + (i - 1) + "]: '" + mine.get(i).name() + "' (listed twice)");
      }
    }
    for (Map.Entry<String, String> id : ids.entrySet()) {
      String owner = owners.get(id.getKey());
      if (owner != null) {
        throw new IllegalArgumentException(
            id.getValue()
                + ": '"
                + id.getKey()
                + "' (already served by ModelRoute '"
                + owner
                + "', which is older)");
      }
    }
    ids.keySet().forEach(id -> owners.put(id, route));
  }

  private static List<ModelEntry> annotated(
      Collection<InferencePool> pools, Map<String, String> owners) {
    Map<String, List<PoolTarget>> byModel = new LinkedHashMap<>();
    pools.stream()
        .sorted(java.util.Comparator.comparing(Objects2::name))
        .forEach(
            pool -> {
              Map<String, String> a = pool.getMetadata().getAnnotations();
              String models = a == null ? null : a.get(InferencePool.MODELS_ANNOTATION);
              if (models == null) {
                return;
              }
              for (String m : models.split(",")) {
                String model = m.trim();
                if (!model.isEmpty() && !owners.containsKey(model)) {
                  byModel
                      .computeIfAbsent(model, k -> new ArrayList<>())
                      .add(PoolTarget.of(Objects2.name(pool)));
                }
              }
            });
    return byModel.entrySet().stream().map(e -> ModelEntry.base(e.getKey(), e.getValue())).toList();
  }

  private static String accepted(ModelRouteSpec spec, Set<String> pools) {
    List<String> missing =
        spec.pools().stream()
            .map(PoolRef::name)
            .filter(n -> n != null && !pools.contains(n))
            .toList();
    return missing.isEmpty()
        ? "accepted"
        : "accepted; InferencePools not found yet: " + String.join(", ", missing);
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
