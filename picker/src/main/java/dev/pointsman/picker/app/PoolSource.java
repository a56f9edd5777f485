package dev.pointsman.picker.app;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.routing.PolicyRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the picker's pools, per-pool policies and model routing come from: the config file ({@link
 * LocalPoolSource}) or the cluster ({@link KubernetesSource}). A source publishes into the three
 * targets; request threads only read them.
 */
public interface PoolSource extends AutoCloseable {

  /** Starts publishing; returns once the first state is published or is being fetched. */
  void start(Datastore datastore, PolicyRegistry policies, AtomicReference<ModelResolver> resolver);

  /**
   * Starts publishing, and enforces the tenant budgets the source holds through {@code budgets}
   * (null: flow control is off). The file's budgets are already in it: by default, only {@link
   * #start(Datastore, PolicyRegistry, AtomicReference)}.
   */
  default void start(
      Datastore datastore,
      PolicyRegistry policies,
      AtomicReference<ModelResolver> resolver,
      TokenBudgets budgets) {
    start(datastore, policies, resolver);
  }

  /** Registers the source's own meters, before {@link #start}; none by default. */
  default void bindMetrics(MeterRegistry registry) {}

  /** Whether the source has published a complete first state. */
  boolean ready();

  @Override
  default void close() {}
}
