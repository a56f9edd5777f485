package dev.pointsman.bench.routing.fleet;

import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.fleet.choice.Tier;
import java.util.List;
import java.util.Objects;

/**
 * One simulated cluster of the fleet benchmark.
 *
 * @param name the cluster's name (the fleet's {@code clusters[].name})
 * @param region where it runs
 * @param tier its cost tier label ({@code spot}, {@code reserved}, {@code on-demand})
 * @param pricePerGpuHour what one of its GPUs costs per hour
 * @param pods its pod groups (each pod one GPU: the 8B model at tensor-parallel size 1)
 */
record ClusterSpec(
    String name, String region, String tier, double pricePerGpuHour, List<PodGroup> pods) {
  ClusterSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(region, "region");
    Tier.of(tier);
    if (!(pricePerGpuHour >= 0)) {
      throw new IllegalArgumentException(
          name + ".pricePerGpuHour: " + pricePerGpuHour + " (expected >= 0)");
    }
    pods = List.copyOf(pods);
  }

  /** Its GPUs: one per pod. */
  int gpus() {
    return pods.stream().mapToInt(PodGroup::count).sum();
  }
}
