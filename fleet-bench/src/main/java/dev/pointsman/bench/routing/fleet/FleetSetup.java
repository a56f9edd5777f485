package dev.pointsman.bench.routing.fleet;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.fleet.health.Failover;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one fleet run simulates.
 *
 * @param workload the request stream's scenario (its workload, world, scrapes); its fleet is
 *     replaced by each cluster's pods
 * @param regions the client regions
 * @param regionShares each region's share of the requests (same order, summing to 1)
 * @param clusters the clusters
 * @param rttMillis the round trip from each region to each cluster's region
 * @param ratePerSecond the mean arrival rate over every region
 * @param durationMs arrivals in [0, durationMs)
 * @param warmupMs arrivals before this are not measured
 * @param drainMs how long the run continues after the last arrival
 * @param sloTtftMs the objective, client-side (round trip included)
 * @param sloTpotMs the time-per-output-token objective of SLO attainment
 * @param summaryIntervalMs how often each cluster's picker makes its summary
 * @param summaryTimeoutMs the fleet's deadline for a summary read (a lost region's reads time out)
 * @param failover the fleet's failover settings
 * @param lostRegion the region whose clusters stop, or null for none
 * @param lossAtMs when they stop
 * @param silentLoss whether the loss is a partition: the fleet tier hears nothing of the requests
 *     it sent there (no reset, no error), only its summary reads timing out; otherwise the
 *     clusters' connections are refused and each failure reaches it half a round trip later
 */
record FleetSetup(
    Scenario workload,
    List<String> regions,
    List<Double> regionShares,
    List<ClusterSpec> clusters,
    Map<String, Map<String, Double>> rttMillis,
    double ratePerSecond,
    double durationMs,
    double warmupMs,
    double drainMs,
    double sloTtftMs,
    double sloTpotMs,
    long summaryIntervalMs,
    long summaryTimeoutMs,
    Failover failover,
    String lostRegion,
    double lossAtMs,
    boolean silentLoss) {

  FleetSetup {
    Objects.requireNonNull(workload, "workload");
    regions = List.copyOf(regions);
    regionShares = List.copyOf(regionShares);
    clusters = List.copyOf(clusters);
    rttMillis = Map.copyOf(rttMillis);
    if (regions.size() != regionShares.size()) {
      throw new IllegalArgumentException(
          "regionShares: " + regionShares + " (expected one per region of " + regions + ")");
    }
    for (String from : regions) {
      for (ClusterSpec c : clusters) {
        if (!rttMillis.containsKey(from) || !rttMillis.get(from).containsKey(c.region())) {
          throw new IllegalArgumentException(
              "rttMillis." + from + "." + c.region() + ": missing (expected milliseconds)");
        }
      }
    }
    if (lostRegion != null && !regions.contains(lostRegion)) {
      throw new IllegalArgumentException(
          "lostRegion: '" + lostRegion + "' (expected one of " + regions + ")");
    }
  }

  /** The round trip from client region {@code region} to cluster {@code cluster}. */
  double rtt(int region, int cluster) {
    return rttMillis.get(regions.get(region)).get(clusters.get(cluster).region());
  }

  /** The same setup with {@code region} lost at {@code atMs}. */
  FleetSetup withLoss(String region, double atMs, boolean silent) {
    return new FleetSetup(
        workload,
        regions,
        regionShares,
        clusters,
        rttMillis,
        ratePerSecond,
        durationMs,
        warmupMs,
        drainMs,
        sloTtftMs,
        sloTpotMs,
        summaryIntervalMs,
        summaryTimeoutMs,
        failover,
        region,
        atMs,
        silent);
  }
}
