package dev.pointsman.fleet.telemetry;

import dev.pointsman.extproc.ExtProcEvents;
import dev.pointsman.fleet.routing.Cluster;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;

/**
 * The fleet tier's meters. Labels are bounded: cluster names come from the configuration, reasons
 * from fixed sets.
 */
public final class FleetMetrics implements ExtProcEvents {
  private final MeterRegistry registry;

  public FleetMetrics(MeterRegistry registry, List<Cluster> clusters, LongClock clock) {
    this.registry = Objects.requireNonNull(registry, "registry");
    for (Cluster c : clusters) {
      Gauge.builder("pointsman.fleet.cluster.share", c, k -> k.health().share(clock.nanos()))
          .description("Share of its traffic the cluster may take: 0 drained, 1 healthy")
          .tag("cluster", c.name())
          .register(registry);
      FunctionCounter.builder("pointsman.fleet.cluster.drains", c, k -> k.health().drains())
          .description("Times the cluster was drained (stale or failing summary, errors)")
          .tag("cluster", c.name())
          .register(registry);
    }
  }

  /** The monotonic clock the gauges read health at. */
  @FunctionalInterface
  public interface LongClock {
    long nanos();
  }

  /** A request was sent to {@code cluster} for {@code reason}. */
  public void routed(String cluster, String reason) {
    count(
        "pointsman.fleet.requests",
        "Requests routed to a cluster, by the rule that chose it",
        "cluster",
        cluster,
        "reason",
        reason);
  }

  /** A request sent to {@code cluster} failed there (5xx, or no response). */
  public void upstreamError(String cluster) {
    count(
        "pointsman.fleet.upstream.errors",
        "Requests a cluster answered with 5xx, or not at all",
        "cluster",
        cluster);
  }

  /** A request the chosen cluster refused was served by its fallback {@code cluster}. */
  public void fallback(String cluster) {
    count(
        "pointsman.fleet.fallbacks",
        "Requests served by a fallback cluster after the chosen one refused them",
        "cluster",
        cluster);
  }

  @Override
  public void onRejected(String reason, int httpStatus) {
    count(
        "pointsman.fleet.rejections",
        "Requests the fleet tier answered itself",
        "reason",
        reason,
        "status",
        Integer.toString(httpStatus));
  }

  @Override
  public void onStreamEnd(String how) {
    count("pointsman.fleet.streams", "ext_proc streams ended, by how", "how", how);
  }

  private void count(String name, String description, String... tags) {
    Counter.builder(name).description(description).tags(tags).register(registry).increment();
  }
}
