package dev.pointsman.picker.datastore;

import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scrape.ScrapeTarget;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An immutable membership: pools by name and the pools each address belongs to. */
record Pools(Map<String, PoolEntry> byName, Map<String, List<PoolEntry>> byAddress) {

  static final Pools EMPTY = new Pools(Map.of(), Map.of());

  /**
   * Builds a membership, reusing the entries (and cached views) of unchanged pools.
   *
   * @throws IllegalArgumentException when one address is in pools with different engines
   */
  static Pools of(Collection<PoolDefinition> definitions, Pools previous) {
    Map<String, PoolEntry> byName = new LinkedHashMap<>();
    Map<String, List<PoolEntry>> byAddress = new HashMap<>();
    Map<String, PoolEntry> firstPool = new HashMap<>();
    for (PoolDefinition def : definitions) {
      PoolEntry old = previous.byName.get(def.name());
      PoolEntry entry = old != null && old.definition.equals(def) ? old : new PoolEntry(def);
      byName.put(def.name(), entry);
      for (Endpoint e : def.endpoints()) {
        PoolEntry other = firstPool.putIfAbsent(e.address(), entry);
        if (other != null) {
          PoolDefinition o = other.definition;
          requireSame(
              e.address(), "engine", def, def.engine().configName(), o, o.engine().configName());
          requireSame(e.address(), "metrics location", def, def.metrics(), o, o.metrics());
        }
        byAddress.computeIfAbsent(e.address(), a -> new ArrayList<>(1)).add(entry);
      }
    }
    byAddress.replaceAll((a, list) -> List.copyOf(list));
    return new Pools(Map.copyOf(byName), Map.copyOf(byAddress));
  }

  private static void requireSame(
      String address,
      String what,
      PoolDefinition def,
      Object value,
      PoolDefinition other,
      Object otherValue) {
    if (!value.equals(otherValue)) {
      throw new IllegalArgumentException(
          "endpoint "
              + address
              + ": "
              + what
              + " "
              + value
              + " in pool '"
              + def.name()
              + "' but "
              + otherValue
              + " in pool '"
              + other.name()
              + "' (expected one "
              + what
              + " per address)");
    }
  }

  Membership membership() {
    List<ScrapeTarget> targets = new ArrayList<>(byAddress.size());
    for (Map.Entry<String, List<PoolEntry>> e : byAddress.entrySet()) {
      PoolDefinition first = e.getValue().getFirst().definition;
      targets.add(new ScrapeTarget(e.getKey(), first.engine(), first.metrics()));
    }
    return new Membership(targets, byAddress.keySet());
  }

  List<PoolDefinition> definitions() {
    return byName.values().stream().map(p -> p.definition).toList();
  }
}
