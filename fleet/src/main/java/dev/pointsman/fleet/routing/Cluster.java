package dev.pointsman.fleet.routing;

import dev.pointsman.fleet.config.ClusterConfig;
import dev.pointsman.fleet.health.ClusterHealth;
import dev.pointsman.fleet.summary.Received;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One cluster at run time: its configuration, its health and its latest summary.
 *
 * @param config as configured
 * @param health whether and how much it may take now
 * @param summary its latest accepted summary, or null before the first
 */
public record Cluster(ClusterConfig config, ClusterHealth health, Supplier<Received> summary) {
  public Cluster {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(summary, "summary");
  }

  public String name() {
    return config.name();
  }
}
