package dev.pointsman.inference.model;

import java.util.List;

/** What a model id resolves to, before the requested id is attached. */
record Route(
    String canonicalModel,
    String baseModel,
    String adapter,
    List<PoolTarget> pools,
    boolean sheddable) {
  Route {
    pools = List.copyOf(pools);
  }

  Route(String canonicalModel, String baseModel, String adapter, List<PoolTarget> pools) {
    this(canonicalModel, baseModel, adapter, pools, false);
  }

  Resolution resolution(String requested) {
    return new Resolution(requested, canonicalModel, baseModel, adapter, pools, sheddable);
  }
}
