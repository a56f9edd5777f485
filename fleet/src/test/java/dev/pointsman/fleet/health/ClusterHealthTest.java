package dev.pointsman.fleet.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClusterHealthTest {
  private static final long MS = 1_000_000L;
  // stale after 3 s, 3 failed reads, 50% errors of at least 4 in 10 s, ejected 5 s, 10 s ramp
  private final ClusterHealth health =
      new ClusterHealth(new Failover(3000, 3, 0.5, 4, 10_000, 5000, 10_000));

  @Test
  void noSummaryYetMeansNoTraffic() {
    assertThat(health.state(0)).isEqualTo(ClusterHealth.State.NO_SUMMARY);
    assertThat(health.share(0)).isZero();
  }

  @Test
  void theFirstSummaryGivesTheFullShareAtOnce() {
    health.summaryReceived(0);

    assertThat(health.share(1)).isEqualTo(1);
    assertThat(health.drains()).isZero();
  }

  @Test
  void aStaleSummaryDrainsTheCluster() {
    health.summaryReceived(0);

    assertThat(health.share(3000 * MS)).isEqualTo(1);
    assertThat(health.share(3001 * MS)).isZero();
    assertThat(health.state(3001 * MS)).isEqualTo(ClusterHealth.State.STALE);
    assertThat(health.drains()).isEqualTo(1);
  }

  @Test
  void failedReadsInARowDrainSoonerThanStaleness() {
    health.summaryReceived(0);
    health.summaryFailed(250 * MS);
    health.summaryFailed(500 * MS);
    assertThat(health.share(500 * MS)).isEqualTo(1);

    health.summaryFailed(750 * MS);

    assertThat(health.state(750 * MS)).isEqualTo(ClusterHealth.State.SUMMARY_FAILING);
    assertThat(health.share(750 * MS)).isZero();
  }

  @Test
  void backFromADrainTheShareRampsLinearly() {
    health.summaryReceived(0);
    assertThat(health.share(4000 * MS)).isZero(); // stale

    health.summaryReceived(5000 * MS);

    assertThat(health.state(5000 * MS)).isEqualTo(ClusterHealth.State.RAMPING);
    assertThat(health.share(5000 * MS)).isZero();
    assertThat(health.share(7500 * MS)).isEqualTo(0.25);
    health.summaryReceived(7500 * MS);
    assertThat(health.share(10_000 * MS)).isEqualTo(0.5);
    health.summaryReceived(10_000 * MS);
    health.summaryReceived(12_500 * MS);
    assertThat(health.share(15_000 * MS)).isEqualTo(1);
    assertThat(health.state(15_000 * MS)).isEqualTo(ClusterHealth.State.UP);
  }

  @Test
  void aRisingErrorRateDrainsForTheEjectionThenRamps() {
    health.summaryReceived(0);
    health.outcome(false, 1 * MS);
    health.outcome(false, 2 * MS);
    health.outcome(true, 3 * MS);
    assertThat(health.share(3 * MS)).isEqualTo(1); // 1 of 3: under the minimum count

    health.outcome(true, 4 * MS); // 2 of 4: 50%

    assertThat(health.state(4 * MS)).isEqualTo(ClusterHealth.State.ERRORS);
    health.summaryReceived(2000 * MS);
    assertThat(health.share(5003 * MS)).isZero();
    health.summaryReceived(5004 * MS);
    assertThat(health.state(5004 * MS)).isEqualTo(ClusterHealth.State.RAMPING);
    health.summaryReceived(8000 * MS);
    assertThat(health.share(10_004 * MS)).isEqualTo(0.5);
  }

  @Test
  void errorsBelowTheRateDoNotDrain() {
    health.summaryReceived(0);
    for (int i = 0; i < 12; i++) {
      health.outcome(i % 3 == 2, i * MS); // one in three, never half
    }

    assertThat(health.share(10 * MS)).isEqualTo(1);
  }

  @Test
  void oldErrorsLeaveWithTheirWindow() {
    health.summaryReceived(0);
    health.outcome(true, 0);
    health.outcome(true, 1 * MS);
    health.outcome(true, 2 * MS);
    health.summaryReceived(10_000 * MS);

    health.outcome(true, 10_001 * MS); // a new window: 1 of 1

    assertThat(health.share(10_001 * MS)).isEqualTo(1);
  }

  @Test
  void requestsFinishingDuringAnEjectionDoNotExtendIt() {
    health.summaryReceived(0);
    for (int i = 0; i < 4; i++) {
      health.outcome(true, i * MS);
    }
    for (int i = 0; i < 8; i++) {
      health.outcome(true, (1000 + i) * MS);
    }
    health.summaryReceived(5003 * MS);

    assertThat(health.state(5003 * MS)).isEqualTo(ClusterHealth.State.RAMPING);
  }

  @Test
  void withoutARampRecoveryIsImmediate() {
    ClusterHealth h = new ClusterHealth(new Failover(3000, 3, 0.5, 4, 10_000, 5000, 0));
    h.summaryReceived(0);
    assertThat(h.share(4000 * MS)).isZero();

    h.summaryReceived(4001 * MS);

    assertThat(h.share(4001 * MS)).isEqualTo(1);
  }

  @Test
  void settingsOutOfRangeAreRefusedByName() {
    assertThatThrownBy(() -> new Failover(0, 3, 0.5, 4, 10_000, 5000, 0))
        .hasMessage("staleAfterMillis: 0 (expected >= 1)");
    assertThatThrownBy(() -> new Failover(1, 3, 1.5, 4, 10_000, 5000, 0))
        .hasMessage("errorRate: 1.5 (expected in (0, 1])");
    assertThatThrownBy(() -> new Failover(1, 3, 0.5, 4, 10_000, 5000, -1))
        .hasMessage("rampMillis: -1 (expected >= 0)");
  }
}
