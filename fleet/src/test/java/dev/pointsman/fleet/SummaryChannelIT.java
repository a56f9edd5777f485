package dev.pointsman.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.fleet.app.FleetApp;
import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.testing.Await;
import dev.pointsman.testing.TestCa;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The summary channel is authenticated both ways over real sockets: a fleet whose client
 * certificate the picker's CA did not sign reads nothing (and routes nothing there), one whose
 * certificate it did reads the summary; a fleet that trusts another CA refuses the picker.
 */
class SummaryChannelIT {
  @TempDir Path dir;
  private TestCa ca;
  private ClusterStack cluster;
  private FleetApp fleet;

  @BeforeEach
  void start() {
    ca = TestCa.create(dir, "cluster-ca");
    cluster = ClusterStack.start("solo", ca);
  }

  @AfterEach
  void stop() {
    if (fleet != null) {
      fleet.close();
    }
    cluster.close();
  }

  private FleetApp fleet(TestCa.Issued identity, Path trusted) {
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1, tls: plaintext, drainSeconds: 0}
        admin: {port: 0, host: 127.0.0.1}
        regions: [here]
        summaries: {intervalMillis: 50, timeoutMillis: 2000, \
        certChain: "%s", privateKey: "%s", caFile: "%s"}
        failover: {summaryFailures: 2}
        clusters:
          - {name: solo, gateway: "%s", summary: "%s", authority: localhost, tier: spot, \
        pricePerGpuHour: 1, rttMillis: {here: 1}}
        """
            .formatted(
                identity.certChain(),
                identity.privateKey(),
                trusted,
                cluster.gatewayAddress(),
                cluster.summaryAddress());
    return new FleetApp(FleetConfig.parse(yaml)).start();
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> solo() {
    return (Map<String, Object>) fleet.clustersReport().get("solo");
  }

  private String state() {
    return (String) solo().get("state");
  }

  private int failedReads() {
    return (Integer) solo().get("summaryFailuresInARow");
  }

  @Test
  void aFleetWithACertificateOfTheClusterCaReadsTheSummary() {
    fleet = fleet(ca.client("fleet"), ca.caFile());

    Await.until("the summary is read", () -> fleet.share("solo") == 1);
    assertThat(state()).isEqualTo("up");
    assertThat(failedReads()).isZero();
    assertThat(solo().get("summarySequence")).isNotNull();
  }

  @Test
  void aFleetWhoseCertificateAnotherCaSignedReadsNothing() {
    TestCa other = TestCa.create(dir, "other-ca");

    assertReadsNothing(other.client("intruder"), ca.caFile());
  }

  @Test
  void aFleetThatTrustsAnotherCaRefusesThePicker() {
    TestCa other = TestCa.create(dir, "other-ca");

    assertReadsNothing(ca.client("fleet"), other.caFile());
  }

  private void assertReadsNothing(TestCa.Issued identity, Path trusted) {
    fleet = fleet(identity, trusted);

    Await.until("three reads have failed", () -> failedReads() >= 3);
    assertThat(state()).isEqualTo("no_summary");
    assertThat(fleet.share("solo")).isZero();
    assertThat(solo().get("summarySequence")).isNull();
  }
}
