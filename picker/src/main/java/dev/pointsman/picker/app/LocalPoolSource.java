package dev.pointsman.picker.app;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.config.PoolConfig;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.Plugins;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Pools, policies and models from the config file (local mode); published once, at start. */
final class LocalPoolSource implements PoolSource {
  private final PickerConfig config;
  private final String boundPool;

  /**
   * @param boundPool serve only this pool of the file, or null for all
   * @throws IllegalArgumentException when the file has no pool {@code boundPool}
   */
  LocalPoolSource(PickerConfig config, String boundPool) {
    this.config = config;
    this.boundPool = boundPool;
    if (config.pools().isEmpty()) {
      throw new IllegalArgumentException("pools: [] (expected at least one pool in local mode)");
    }
    if (boundPool != null) {
      config.pool(boundPool);
    }
  }

  @Override
  public void start(
      Datastore datastore, PolicyRegistry policies, AtomicReference<ModelResolver> resolver) {
    resolver.set(ModelResolver.of(config.modelsConfig()));
    List<PoolDefinition> defs = new ArrayList<>();
    for (PoolConfig p : config.pools()) {
      if (boundPool != null && !p.name().equals(boundPool)) {
        continue;
      }
      defs.add(
          new PoolDefinition(
              p.name(), p.engineType(), p.toEndpoints(), AppProtocol.HTTP, p.metrics()));
      policies.set(p.name(), Plugins.build(p.policy()));
    }
    datastore.setPools(defs);
  }

  @Override
  public boolean ready() {
    return true;
  }
}
