package dev.pointsman.fleet.choice;

import java.util.Objects;

/**
 * One cluster as one request's choice sees it.
 *
 * @param cluster the cluster's name
 * @param tier its cost tier
 * @param pricePerGpuHour what its GPUs cost; cheaper is filled first
 * @param predictedTtftMillis the round trip from the client's region plus the cluster's own
 *     predicted time to first token; negative when the cluster cannot serve the request now
 * @param prefixDepth how many of the request's leading prefix blocks the cluster advertises as hot
 *     (0: none)
 * @param share the fraction of the traffic it would get that it may take now: 0 drained, 1 healthy,
 *     in between while it ramps back up
 */
public record Option(
    String cluster,
    Tier tier,
    double pricePerGpuHour,
    double predictedTtftMillis,
    int prefixDepth,
    double share) {
  public Option {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(tier, "tier");
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("share: " + share + " (expected 0..1)");
    }
  }

  /** Whether it can take a request now at all. */
  boolean open() {
    return share > 0 && predictedTtftMillis >= 0;
  }
}
