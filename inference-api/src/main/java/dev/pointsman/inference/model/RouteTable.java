package dev.pointsman.inference.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Builds the id to route map: configured models first (configuration wins), then models discovered
 * on pools that the configuration does not name, each served by every pool that reported it.
 */
final class RouteTable {
  private final Map<String, Route> routes = new HashMap<>();

  private RouteTable() {}

  static Map<String, Route> build(ModelsConfig config, SortedMap<String, DiscoveredModels> found) {
    RouteTable table = new RouteTable();
    table.addConfigured(config);
    table.addDiscovered(found);
    return Map.copyOf(table.routes);
  }

  private void addConfigured(ModelsConfig config) {
    Map<String, List<PoolTarget>> basePools = new HashMap<>();
    Map<String, Boolean> baseSheddable = new HashMap<>();
    for (ModelEntry entry : config.models()) {
      if (!entry.isAdapter()) {
        basePools.put(entry.name(), entry.pools());
        baseSheddable.put(entry.name(), Boolean.TRUE.equals(entry.sheddable()));
      }
    }
    for (ModelEntry entry : config.models()) {
      Route route =
          entry.isAdapter()
              ? new Route(
                  entry.name(),
                  entry.baseModel(),
                  entry.name(),
                  entry.pools().isEmpty() ? basePools.get(entry.baseModel()) : entry.pools(),
                  entry.sheddable() != null
                      ? entry.sheddable()
                      : baseSheddable.getOrDefault(entry.baseModel(), false))
              : new Route(
                  entry.name(),
                  entry.name(),
                  null,
                  entry.pools(),
                  Boolean.TRUE.equals(entry.sheddable()));
      add(route, entry.name());
      entry.aliases().forEach(alias -> routes.put(alias, route));
    }
  }

  private void addDiscovered(SortedMap<String, DiscoveredModels> found) {
    Map<String, List<String>> basePools = new LinkedHashMap<>();
    Map<String, String> adapterBase = new LinkedHashMap<>();
    Map<String, List<String>> adapterPools = new LinkedHashMap<>();
    found.forEach(
        (pool, models) -> {
          String base = canonicalOf(models.baseModel());
          basePools.computeIfAbsent(base, k -> new ArrayList<>()).add(pool);
          for (String adapter : models.adapters()) {
            adapterBase.putIfAbsent(adapter, base);
            adapterPools.computeIfAbsent(adapter, k -> new ArrayList<>()).add(pool);
          }
        });
    basePools.forEach((base, pools) -> addIfNew(new Route(base, base, null, targets(pools))));
    adapterPools.forEach(
        (adapter, pools) ->
            addIfNew(new Route(adapter, adapterBase.get(adapter), adapter, targets(pools))));
    found
        .values()
        .forEach(m -> m.aliases().forEach(a -> aliasIfNew(a, canonicalOf(m.baseModel()))));
  }

  private String canonicalOf(String id) {
    Route route = routes.get(id);
    return route == null ? id : route.canonicalModel();
  }

  private void addIfNew(Route route) {
    if (!routes.containsKey(route.canonicalModel())) {
      add(route, route.canonicalModel());
    }
  }

  private void aliasIfNew(String alias, String target) {
    if (!routes.containsKey(alias) && routes.containsKey(target)) {
      routes.put(alias, routes.get(target));
    }
  }

  private void add(Route route, String name) {
    routes.put(name, route);
  }

  private static List<PoolTarget> targets(List<String> pools) {
    return pools.stream().map(PoolTarget::of).toList();
  }
}
