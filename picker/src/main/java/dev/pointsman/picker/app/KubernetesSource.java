package dev.pointsman.picker.app;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.k8s.KubernetesPoolSource;
import dev.pointsman.picker.k8s.KubernetesSettings;
import dev.pointsman.picker.routing.PolicyRegistry;
import java.util.concurrent.atomic.AtomicReference;

/** Pools, policies and models from the cluster: {@link KubernetesPoolSource}, adapted. */
final class KubernetesSource implements PoolSource {
  private final KubernetesSettings settings;
  private volatile KubernetesPoolSource source;

  KubernetesSource(KubernetesSettings settings) {
    this.settings = settings;
  }

  @Override
  public void start(
      Datastore datastore, PolicyRegistry policies, AtomicReference<ModelResolver> resolver) {
    source = KubernetesPoolSource.connect(settings, datastore, policies, resolver).start();
  }

  @Override
  public boolean ready() {
    KubernetesPoolSource s = source;
    return s != null && s.ready();
  }

  @Override
  public void close() {
    KubernetesPoolSource s = source;
    if (s != null) {
      s.close();
    }
  }
}
