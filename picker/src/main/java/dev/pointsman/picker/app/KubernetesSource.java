package dev.pointsman.picker.app;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.k8s.KubernetesPoolSource;
import dev.pointsman.picker.k8s.KubernetesSettings;
import dev.pointsman.picker.k8s.UnknownFields;
import dev.pointsman.picker.routing.PolicyRegistry;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Pools, policies and models from the cluster: {@link KubernetesPoolSource}, adapted. */
final class KubernetesSource implements PoolSource {
  private final KubernetesSettings settings;
  private final UnknownFields unknownFields = new UnknownFields();
  private volatile KubernetesPoolSource source;

  KubernetesSource(KubernetesSettings settings) {
    this.settings = settings;
  }

  /** Unknown fields read, by kind: a cluster running a newer CRD than this picker knows. */
  @Override
  public void bindMetrics(MeterRegistry registry) {
    for (String kind : List.of("InferencePool", "ModelRoute", "PickerPolicy", "TenantBudget")) {
      FunctionCounter.builder("pointsman.k8s.unknown.fields", unknownFields, u -> u.count(kind))
          .description("Fields of Kubernetes objects unknown to the picker, skipped when read")
          .tag("kind", kind)
          .register(registry);
    }
  }

  @Override
  public void start(
      Datastore datastore, PolicyRegistry policies, AtomicReference<ModelResolver> resolver) {
    start(datastore, policies, resolver, null);
  }

  /** With {@code budgets} (flow control on), TenantBudgets are watched and enforced too. */
  @Override
  public void start(
      Datastore datastore,
      PolicyRegistry policies,
      AtomicReference<ModelResolver> resolver,
      TokenBudgets budgets) {
    source =
        KubernetesPoolSource.connect(
                settings, datastore, policies, resolver, unknownFields, budgets)
            .start();
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
