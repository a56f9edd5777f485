package dev.pointsman.fleet.telemetry;

import dev.pointsman.fleet.k8s.PoolImportWatch;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The InferencePoolImport watch's meters: whether placement follows imports now, how many were
 * read, how many exporting clusters they named that the fleet has no cluster for, and failed reads
 * by kind (a fixed set).
 */
public final class PoolImportMeters {
  private PoolImportMeters() {}

  public static void bind(MeterRegistry registry, PoolImportWatch watch) {
    Gauge.builder("pointsman.fleet.pool.imports.applied", watch, PoolImportMeters::applied)
        .description(
            "1 while placement follows the InferencePoolImports read (the watch live or"
                + " reconnecting), 0 while they cannot be read (placement as without imports)")
        .register(registry);
    Gauge.builder("pointsman.fleet.pool.imports", watch, PoolImportWatch::imports)
        .description("InferencePoolImports read")
        .register(registry);
    Gauge.builder(
            "pointsman.fleet.pool.imports.unknown.clusters", watch, w -> w.unknownClusters().size())
        .description("Exporting clusters named by imports that are not among the fleet's clusters")
        .register(registry);
    for (PoolImportWatch.Failure kind : PoolImportWatch.Failure.values()) {
      FunctionCounter.builder("pointsman.fleet.pool.imports.failures", watch, w -> w.failures(kind))
          .description("Failed lists and watches of InferencePoolImports, by kind")
          .tag("reason", kind.label())
          .register(registry);
    }
  }

  private static double applied(PoolImportWatch watch) {
    return switch (watch.state()) {
      case WATCHING, RECONNECTING -> 1;
      case STARTING, UNAVAILABLE -> 0;
    };
  }
}
