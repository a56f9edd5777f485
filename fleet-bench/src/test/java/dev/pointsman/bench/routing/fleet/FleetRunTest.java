package dev.pointsman.bench.routing.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.fleet.FleetRun.Fate;
import dev.pointsman.bench.routing.fleet.FleetRun.Policy;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetRunTest {
  /** 40 req/s for 16 s (10 s of warm-up): a few hundred measured requests. */
  private static final FleetSetup SETUP = FleetBench.setup(40, 16_000);

  @Test
  void everyRequestIsServedOnceOrFailsWithAReason() {
    for (Policy p : Policy.values()) {
      FleetOutcomes o = new FleetRun(SETUP, p, 1).run();
      for (int i = 0; i < o.stream().size(); i++) {
        if (o.fate()[i] == Fate.SERVED) {
          assertThat(o.clusterOf()[i]).as("cluster of %d", i).isGreaterThanOrEqualTo(0);
          assertThat(o.finishMs()[i]).as("finish of %d", i).isGreaterThan(o.firstMs()[i]);
        }
      }
      FleetOutcomes.Figures f = o.figures();
      assertThat(f.requests()).isGreaterThan(200);
      assertThat(f.failed()).as(p.label).isLessThan(f.requests() / 100 + 1);
    }
  }

  @Test
  void clientTtftIncludesTheRoundTrip() {
    FleetOutcomes o = new FleetRun(SETUP, Policy.ROUND_ROBIN, 2).run();
    int cross = 0;
    for (int i = 0; i < o.stream().size(); i++) {
      if (o.served(i)) {
        double rtt = SETUP.rtt(o.regionOf()[i], o.clusterOf()[i]);
        assertThat(o.clientTtftMs(i)).isGreaterThanOrEqualTo(rtt);
        cross += rtt == FleetBench.RTT_WAN_MS ? 1 : 0;
      }
    }
    assertThat(cross).isPositive();
  }

  @Test
  void theFleetFillsTheSpotClusterFirstAndNearestStaysInRegion() {
    Map<Policy, FleetOutcomes.Figures> f = new EnumMap<>(Policy.class);
    for (Policy p : Policy.values()) {
      f.put(p, new FleetRun(SETUP, p, 1).run().figures());
    }
    assertThat(f.get(Policy.FLEET).spotTokenShare())
        .isGreaterThan(f.get(Policy.NEAREST).spotTokenShare())
        .isGreaterThan(f.get(Policy.ROUND_ROBIN).spotTokenShare());
    assertThat(f.get(Policy.NEAREST).crossRegionShare()).isZero();
    assertThat(f.get(Policy.FLEET).busyCostPerMTok())
        .isLessThan(f.get(Policy.NEAREST).busyCostPerMTok());
  }

  @Test
  void sameSeedSameRun() {
    FleetOutcomes a = new FleetRun(SETUP, Policy.FLEET, 3).run();
    FleetOutcomes b = new FleetRun(SETUP, Policy.FLEET, 3).run();
    assertThat(a.clusterOf()).isEqualTo(b.clusterOf());
    assertThat(a.firstMs()).isEqualTo(b.firstMs());
  }

  @Test
  void aPartitionedRegionIsDrainedByItsSummariesAndNothingIsSentThereAfter() {
    double loss = 12_000;
    FleetSetup lossy = SETUP.withLoss(FleetBench.EU, loss, true);
    FleetOutcomes o = new FleetRun(lossy, Policy.ROUND_ROBIN, 1).run();
    FleetOutcomes.Failover f = o.failover();
    // three reads time out one after another, or the last summary goes stale
    double bound =
        Math.min(
                3 * lossy.summaryTimeoutMs(),
                lossy.failover().staleAfterMillis() + lossy.summaryIntervalMs())
            + FleetRun.METER_MS;
    assertThat(f.drainMs()).isPositive().isLessThanOrEqualTo(bound);
    assertThat(f.lostInFlight()).isPositive();
    assertThat(f.lostUnstarted()).isPositive(); // round-robin kept sending until the drain
    for (int i = 0; i < o.stream().size(); i++) {
      if (o.fate()[i] == Fate.LOST_UNSTARTED) {
        assertThat(o.stream().get(i).arrivalMs()).isBetween(loss - 50, loss + f.drainMs());
      }
      if (o.stream().get(i).arrivalMs() > loss + f.drainMs() && o.clusterOf()[i] >= 0) {
        assertThat(SETUP.clusters().get(o.clusterOf()[i]).region()).isEqualTo(FleetBench.US);
      }
    }
  }

  @Test
  void refusedConnectionsDrainARegionSoonerThanSilence() {
    FleetSetup refused = SETUP.withLoss(FleetBench.EU, 12_000, false);
    FleetSetup silent = SETUP.withLoss(FleetBench.EU, 12_000, true);
    FleetOutcomes.Failover a = new FleetRun(refused, Policy.ROUND_ROBIN, 1).run().failover();
    FleetOutcomes.Failover b = new FleetRun(silent, Policy.ROUND_ROBIN, 1).run().failover();
    assertThat(a.drainMs()).isLessThan(b.drainMs());
    assertThat(a.lostUnstarted()).isLessThan(b.lostUnstarted());
  }

  @Test
  void requestsSentToAStoppedRegionBeforeTheDrainAreResentToTheirFallbackAndNoneIsLost() {
    FleetSetup refused = FleetBench.setup(80, 16_000).withLoss(FleetBench.EU, 12_000, false);
    FleetOutcomes with = new FleetRun(refused, Policy.FLEET, 1).run();
    FleetOutcomes without = new FleetRun(refused, Policy.FLEET_NO_RETRY, 1).run();

    assertThat(without.failover().lostUnstarted()).isPositive();
    assertThat(with.failover().lostUnstarted()).isZero();
    assertThat(with.failover().resentServed()).isPositive();
    for (int i = 0; i < with.stream().size(); i++) {
      if (with.resent()[i]) {
        // served in us-east, its TTFT counting the refused round trip to eu-west
        assertThat(refused.clusters().get(with.clusterOf()[i]).region()).isEqualTo(FleetBench.US);
        assertThat(with.clientTtftMs(i)).isGreaterThanOrEqualTo(FleetBench.RTT_WAN_MS);
      }
    }
  }

  @Test
  void inAPartitionTheResendWaitsForTheConnectTimeout() {
    FleetSetup silent = FleetBench.setup(80, 16_000).withLoss(FleetBench.EU, 12_000, true);
    FleetOutcomes o = new FleetRun(silent, Policy.FLEET, 1).run();

    assertThat(o.failover().lostUnstarted()).isZero();
    assertThat(o.failover().resentServed()).isPositive();
    for (int i = 0; i < o.stream().size(); i++) {
      if (o.resent()[i] && o.served(i)) {
        assertThat(o.clientTtftMs(i)).isGreaterThanOrEqualTo(FleetRun.CONNECT_TIMEOUT_MS);
      }
    }
  }
}
