package dev.pointsman.runtime;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * A Prometheus meter registry with the common tag {@code app} and the JVM binders (memory, GC,
 * threads, processor, uptime). Closing it unregisters the GC listeners and closes the registry.
 */
public final class Metrics implements AutoCloseable {
  private final PrometheusMeterRegistry registry;
  private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

  private Metrics(String app, Clock clock) {
    if (app == null || app.isBlank()) {
      throw new IllegalArgumentException("metrics app tag: '" + app + "' (expected a name)");
    }
    registry =
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), clock);
    registry.config().commonTags("app", app);
    new JvmMemoryMetrics().bindTo(registry);
    gcMetrics.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  /** A registry tagged {@code app=<app>} on the system clock. */
  public static Metrics create(String app) {
    return new Metrics(app, Clock.SYSTEM);
  }

  /** A registry tagged {@code app=<app>} on {@code clock} (a {@code MockClock} in tests). */
  public static Metrics create(String app, Clock clock) {
    return new Metrics(app, clock);
  }

  /** The registry to inject into meter owners and the admin server. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    gcMetrics.close();
    registry.close();
  }
}
