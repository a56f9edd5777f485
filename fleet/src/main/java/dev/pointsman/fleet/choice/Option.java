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
 * @param predictedTpotMillis the cluster's predicted time per output token; 0 or less when unknown
 */
public record Option(
    String cluster,
    Tier tier,
    double pricePerGpuHour,
    double predictedTtftMillis,
    int prefixDepth,
    double share,
    double predictedTpotMillis,
    String region) {

  /** An option without a TPOT prediction. */
  public Option(
      String cluster,
      Tier tier,
      double pricePerGpuHour,
      double predictedTtftMillis,
      int prefixDepth,
      double share) {
    this(cluster, tier, pricePerGpuHour, predictedTtftMillis, prefixDepth, share, -1, null);
  }

  /** Whether this cluster is known to run in another region than {@code other}'s. */
  boolean elsewhereThan(Option other) {
    return region != null && other.region != null && !region.equals(other.region);
  }

  public Option {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(tier, "tier");
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("share: " + share + " (expected 0..1)");
    }
  }

  /**
   * Whether its predictions are within {@code factor} × the objectives: the TTFT always, the TPOT
   * when there is a TPOT objective (not NaN) and the cluster predicts one.
   */
  boolean within(double factor, double sloMillis, double tpotSloMillis) {
    return predictedTtftMillis <= factor * sloMillis
        && (Double.isNaN(tpotSloMillis)
            || predictedTpotMillis <= 0
            || predictedTpotMillis <= factor * tpotSloMillis);
  }

  /** Whether it can take a request now at all. */
  boolean open() {
    return share > 0 && predictedTtftMillis >= 0;
  }
}
