package dev.pointsman.bench.routing.run;

import dev.pointsman.bench.routing.policy.FleetView;
import dev.pointsman.bench.routing.policy.RoutingPolicy;
import dev.pointsman.bench.routing.scenario.ScrapeSpec;
import dev.pointsman.sim.engine.PodSnapshot;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * The scrape path of one run, as {@link ScrapeSpec} describes it: per-pod ticks at a seeded phase,
 * each answer delivered a seeded log-normal lag after its tick with the pod as it was at the tick,
 * failures (drawn, timed out, or a restarting pod) that leave the view alone, and ticks skipped
 * while the pod's previous scrape is in flight. With no lag and no failures every answer is applied
 * at its tick, and no random number is drawn beyond the phases. Not thread-safe.
 */
public final class ScrapeFeed {
  private final ScrapeSpec spec;
  private final SplittableRandom random;
  private final double[] nextTick;
  private final double[] deliverAt;
  private final PodSnapshot[] answer;
  private final double[] takenAt;
  private long skipped;
  private long failed;

  /** {@code phases} draws each pod's first tick; {@code faults} draws lags and failures. */
  public ScrapeFeed(ScrapeSpec spec, int pods, SplittableRandom phases, SplittableRandom faults) {
    this.spec = spec;
    this.random = faults;
    nextTick = new double[pods];
    for (int i = 0; i < pods; i++) {
      nextTick[i] = phases.nextDouble() * spec.jitterMs();
    }
    deliverAt = new double[pods];
    Arrays.fill(deliverAt, Double.POSITIVE_INFINITY);
    answer = new PodSnapshot[pods];
    takenAt = new double[pods];
  }

  /** Time of the next tick or delivery. */
  public double nextEventMs() {
    return Math.min(nextTick[argMin(nextTick)], deliverAt[argMin(deliverAt)]);
  }

  /**
   * Handles the next tick or delivery (deliveries first at equal times); the caller has run the
   * cluster up to {@link #nextEventMs()}.
   */
  void fire(VirtualCluster cluster, FleetView fleet, RoutingPolicy policy) {
    fire(cluster, fleet, policy::onScrape);
  }

  /**
   * As {@link #fire(VirtualCluster, FleetView, RoutingPolicy)}, telling {@code policy} which pod
   * was scraped.
   */
  public void fire(VirtualCluster cluster, FleetView fleet, IntConsumer policy) {
    int d = argMin(deliverAt);
    int t = argMin(nextTick);
    if (deliverAt[d] <= nextTick[t]) {
      deliver(d, fleet, policy);
    } else {
      tick(t, cluster, fleet, policy);
    }
  }

  /** Ticks skipped because the previous scrape was in flight. */
  long skipped() {
    return skipped;
  }

  /** Scrapes that failed. */
  long failed() {
    return failed;
  }

  private void tick(int pod, VirtualCluster cluster, FleetView fleet, IntConsumer policy) {
    double now = nextTick[pod];
    nextTick[pod] += spec.intervalMs();
    if (deliverAt[pod] != Double.POSITIVE_INFINITY) {
      skipped++;
      return;
    }
    boolean ok = cluster.isUp(pod);
    double lag = 0;
    if (spec.lagMedianMs() > 0) {
      lag = spec.lagMedianMs() * Math.exp(spec.lagSigma() * random.nextGaussian());
    }
    if (spec.failureRate() > 0 && random.nextDouble() < spec.failureRate()) {
      ok = false;
    }
    if (lag > spec.timeoutMs()) {
      ok = false;
      lag = spec.timeoutMs();
    }
    answer[pod] = ok ? cluster.snapshot(pod) : null;
    takenAt[pod] = now;
    if (lag == 0) {
      deliver(pod, fleet, policy);
    } else {
      deliverAt[pod] = now + lag;
    }
  }

  private void deliver(int pod, FleetView fleet, IntConsumer policy) {
    deliverAt[pod] = Double.POSITIVE_INFINITY;
    PodSnapshot s = answer[pod];
    answer[pod] = null;
    if (s == null) {
      failed++;
      fleet.scrapeFailed(pod);
    } else {
      fleet.applyScrape(pod, s, takenAt[pod]);
      policy.accept(pod);
    }
  }

  private static int argMin(double[] values) {
    int best = 0;
    for (int i = 1; i < values.length; i++) {
      if (values[i] < values[best]) {
        best = i;
      }
    }
    return best;
  }
}
