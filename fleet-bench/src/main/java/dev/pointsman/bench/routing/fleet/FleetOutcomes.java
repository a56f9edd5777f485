package dev.pointsman.bench.routing.fleet;

import dev.pointsman.bench.routing.run.Stats;
import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.List;

/**
 * What each request of one fleet run met, and the figures made from it: requests are measured when
 * they arrived in [warm-up, duration); TTFT is the client's (round trip included); a request counts
 * towards SLO attainment when it was served, its TTFT within the objective and its time per output
 * token within that objective. A request resent to a fallback cluster (its first one lost before it
 * started) is counted where it was served, its TTFT from its first sending.
 */
record FleetOutcomes(
    FleetSetup setup,
    String policy,
    long seed,
    List<BenchRequest> stream,
    int[] regionOf,
    int[] clusterOf,
    double[] firstMs,
    double[] finishMs,
    int[] cached,
    FleetRun.Fate[] fate,
    boolean[] resent,
    double[] busyGpuMs,
    double drainedAtMs) {

  /** How long after the loss the failover window lasts. */
  static final double FAILOVER_WINDOW_MS = 10_000;

  /**
   * The figures of the measured requests.
   *
   * @param requests measured requests
   * @param failed those not served (rejected, refused, lost)
   * @param sloAttainment the share served within both objectives
   * @param ttftAttainment the share served within the TTFT objective
   * @param ttftP50Ms median client TTFT of those served
   * @param ttftP99Ms 99th percentile of the same
   * @param tpotP99Ms 99th percentile time per output token of those served with two or more
   * @param busyCostPerMTok the price of the GPU time with work on it, per million tokens served
   * @param provisionedCostPerMTok the price of every cluster's GPUs over the measured window, per
   *     million tokens served
   * @param spotTokenShare the share of the tokens served by spot clusters
   * @param crossRegionShare the share of served requests served outside the client's region
   * @param cachedPromptShare the share of served prompt tokens found in the engines' prefix caches
   */
  record Figures(
      int requests,
      int failed,
      double sloAttainment,
      double ttftAttainment,
      double ttftP50Ms,
      double ttftP99Ms,
      double tpotP99Ms,
      double busyCostPerMTok,
      double provisionedCostPerMTok,
      double spotTokenShare,
      double crossRegionShare,
      double cachedPromptShare) {}

  /**
   * The figures of a region's loss.
   *
   * @param drainMs from the loss until every fleet tier gave every lost cluster a share of 0
   * @param lastSentMs from the loss until the last request sent to a lost cluster (0: none sent)
   * @param lostInFlight requests started in the lost clusters that failed with them
   * @param lostUnstarted requests sent there after the loss that never started
   * @param resentServed requests sent there after the loss that a fallback cluster served
   * @param rejected requests the fleet tier had no cluster for, after the loss
   * @param windowRequests requests arriving in the failover window
   * @param windowTtftP99Ms p99 client TTFT of those served among them
   * @param windowSloAttainment their SLO attainment (a failed one a miss)
   */
  record Failover(
      double drainMs,
      double lastSentMs,
      int lostInFlight,
      int lostUnstarted,
      int resentServed,
      int rejected,
      int windowRequests,
      double windowTtftP99Ms,
      double windowSloAttainment) {}

  /** Whether request {@code i} was served and is measured. */
  boolean served(int i) {
    return fate[i] == FleetRun.Fate.SERVED && !Double.isNaN(finishMs[i]);
  }

  /** The client's TTFT of request {@code i}: the engine's plus half a round trip back; or NaN. */
  double clientTtftMs(int i) {
    if (clusterOf[i] < 0 || Double.isNaN(firstMs[i])) {
      return Double.NaN;
    }
    return firstMs[i] + setup.rtt(regionOf[i], clusterOf[i]) / 2 - stream.get(i).arrivalMs();
  }

  boolean withinSlo(int i) {
    if (!served(i) || !(clientTtftMs(i) <= setup.sloTtftMs())) {
      return false;
    }
    int out = stream.get(i).sim().outputTokens();
    return out < 2 || tpotMs(i) <= setup.sloTpotMs();
  }

  /** Time per output token of a served request with two or more. */
  private double tpotMs(int i) {
    return (finishMs[i] - firstMs[i]) / (stream.get(i).sim().outputTokens() - 1);
  }

  private boolean measured(int i) {
    double a = stream.get(i).arrivalMs();
    return a >= setup.warmupMs() && a < setup.durationMs();
  }

  Figures figures() {
    int requests = 0;
    int failed = 0;
    int met = 0;
    int ttftMet = 0;
    int cross = 0;
    double[] tpot = new double[stream.size()];
    int decoded = 0;
    double tokens = 0;
    double spotTokens = 0;
    double prompt = 0;
    double hit = 0;
    double[] ttft = new double[stream.size()];
    int served = 0;
    for (int i = 0; i < stream.size(); i++) {
      if (!measured(i)) {
        continue;
      }
      requests++;
      if (!served(i)) {
        failed++;
        continue;
      }
      met += withinSlo(i) ? 1 : 0;
      ttftMet += clientTtftMs(i) <= setup.sloTtftMs() ? 1 : 0;
      if (stream.get(i).sim().outputTokens() > 1) {
        tpot[decoded++] = tpotMs(i);
      }
      ttft[served++] = clientTtftMs(i);
      ClusterSpec c = setup.clusters().get(clusterOf[i]);
      cross += c.region().equals(setup.regions().get(regionOf[i])) ? 0 : 1;
      double t = stream.get(i).sim().promptTokens() + stream.get(i).sim().outputTokens();
      tokens += t;
      prompt += stream.get(i).sim().promptTokens();
      hit += cached[i];
      spotTokens += c.tier().equals("spot") ? t : 0;
    }
    double busy = 0;
    double provisioned = 0;
    double windowHours = (setup.durationMs() - setup.warmupMs()) / 3_600_000;
    for (int c = 0; c < setup.clusters().size(); c++) {
      ClusterSpec spec = setup.clusters().get(c);
      busy += busyGpuMs[c] / 3_600_000 * spec.pricePerGpuHour();
      provisioned += spec.gpus() * windowHours * spec.pricePerGpuHour();
    }
    double[] sorted = Stats.sorted(ttft, served);
    double[] tpots = Stats.sorted(tpot, decoded);
    return new Figures(
        requests,
        failed,
        requests == 0 ? Double.NaN : (double) met / requests,
        requests == 0 ? Double.NaN : (double) ttftMet / requests,
        Stats.quantile(sorted, 0.5),
        Stats.quantile(sorted, 0.99),
        Stats.quantile(tpots, 0.99),
        busy / tokens * 1e6,
        provisioned / tokens * 1e6,
        tokens == 0 ? Double.NaN : spotTokens / tokens,
        served == 0 ? Double.NaN : (double) cross / served,
        prompt == 0 ? Double.NaN : hit / prompt);
  }

  /** The loss's figures; null when no region was lost. */
  Failover failover() {
    if (setup.lostRegion() == null) {
      return null;
    }
    double loss = setup.lossAtMs();
    int inFlight = 0;
    int unstarted = 0;
    int resentServed = 0;
    int rejected = 0;
    int window = 0;
    int met = 0;
    double lastSent = 0;
    double[] ttft = new double[stream.size()];
    int served = 0;
    for (int i = 0; i < stream.size(); i++) {
      double a = stream.get(i).arrivalMs();
      boolean lostCluster =
          clusterOf[i] >= 0
              && setup.clusters().get(clusterOf[i]).region().equals(setup.lostRegion());
      if (lostCluster && fate[i] == FleetRun.Fate.LOST_IN_FLIGHT) {
        inFlight++;
      }
      if (fate[i] == FleetRun.Fate.LOST_UNSTARTED) {
        unstarted++;
      }
      if ((lostCluster || resent[i]) && a >= loss) {
        lastSent = Math.max(lastSent, a - loss);
      }
      if (resent[i] && served(i)) {
        resentServed++;
      }
      if (a >= loss && fate[i] == FleetRun.Fate.REJECTED) {
        rejected++;
      }
      if (a >= loss && a < loss + FAILOVER_WINDOW_MS) {
        window++;
        met += withinSlo(i) ? 1 : 0;
        if (served(i)) {
          ttft[served++] = clientTtftMs(i);
        }
      }
    }
    double[] sorted = Stats.sorted(ttft, served);
    return new Failover(
        drainedAtMs - loss,
        lastSent,
        inFlight,
        unstarted,
        resentServed,
        rejected,
        window,
        served == 0 ? Double.NaN : Stats.quantile(sorted, 0.99),
        window == 0 ? Double.NaN : (double) met / window);
  }
}
