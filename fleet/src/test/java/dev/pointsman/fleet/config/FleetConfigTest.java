package dev.pointsman.fleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.fleet.choice.Tier;
import org.junit.jupiter.api.Test;

class FleetConfigTest {
  private static final String SUMMARIES =
      "summaries: {certChain: f.crt, privateKey: f.key, caFile: ca.pem}\n";
  private static final String CLUSTER =
      """
      clusters:
        - {name: east, gateway: "10.0.0.1:8443", summary: "picker.east:9004", tier: spot,
           pricePerGpuHour: 1.2, rttMillis: {us: 5, eu: 90}}
      """;

  @Test
  void defaultsAndTheClusterAreRead() {
    FleetConfig c = FleetConfig.parse("regions: [us, eu]\n" + SUMMARIES + CLUSTER);

    assertThat(c.defaultRegion()).isEqualTo("us");
    assertThat(c.regionHeader()).isEqualTo("x-pointsman-region");
    assertThat(c.sloHeader()).isEqualTo("x-slo-ttft-ms");
    assertThat(c.sloTtftMillis()).isEqualTo(2000);
    assertThat(c.spillAt()).isEqualTo(0.8);
    assertThat(c.fallbacks()).isEqualTo(1);
    assertThat(c.summaries().intervalMillis()).isEqualTo(250);
    assertThat(c.failover().toFailover().staleAfterMillis()).isEqualTo(3000);
    ClusterConfig east = c.clusters().getFirst();
    assertThat(east.costTier()).isEqualTo(Tier.SPOT);
    assertThat(east.summaryAuthority()).isEqualTo("picker.east");
    assertThat(east.rttMillis()).containsEntry("eu", 90.0);
    assertThat(c.region("eu")).isEqualTo("eu");
    assertThat(c.region("mars")).isEqualTo("us");
    assertThat(c.region(null)).isEqualTo("us");
  }

  @Test
  void replicationIsOffByDefaultAndMayNotJoinThePickersCluster() {
    FleetConfig plain = FleetConfig.parse("regions: [us, eu]\n" + SUMMARIES + CLUSTER);
    assertThat(plain.replication().enabled()).isFalse();

    FleetConfig shared =
        FleetConfig.parse(
            "regions: [us, eu]\n"
                + SUMMARIES
                + CLUSTER
                + "replication: {enabled: true, cluster: pointsman-fleet, expectedMembers: 2,"
                + " discovery: {dnsQuery: fleet-headless.ns.svc}}\n");
    assertThat(shared.replication().cluster()).isEqualTo("pointsman-fleet");
    assertThat(shared.withReplicationBind("10.1.2.3").replication().bindAddress())
        .isEqualTo("10.1.2.3");

    assertThatThrownBy(
            () ->
                FleetConfig.parse(
                    "regions: [us, eu]\n"
                        + SUMMARIES
                        + CLUSTER
                        + "replication: {enabled: true, discovery: {members: [10.0.0.1:7800]}}\n"))
        .hasMessageContaining("replication.cluster: 'pointsman-picker' is the pickers'");
  }

  @Test
  void aFallbackCountOutOfRangeIsRefused() {
    assertThatThrownBy(
            () -> FleetConfig.parse("regions: [us]\nfallbacks: 4\n" + SUMMARIES + CLUSTER))
        .hasMessageContaining("fallbacks: 4 (expected 0..3)");
    assertThat(FleetConfig.parse("regions: [us]\nfallbacks: 0\n" + SUMMARIES + CLUSTER).fallbacks())
        .isZero();
  }

  @Test
  void poolImportsAreOffByDefaultAndTheirNamespaceIsChecked() {
    String base = "regions: [us, eu]\n" + SUMMARIES + CLUSTER;

    assertThat(FleetConfig.parse(base).poolImports().enabled()).isFalse();
    PoolImportsSection on =
        FleetConfig.parse(base + "poolImports: {enabled: true, namespace: models}\n").poolImports();
    assertThat(on.enabled()).isTrue();
    assertThat(on.namespace()).isEqualTo("models");
    assertThat(FleetConfig.parse(base + "poolImports: {enabled: true}\n").poolImports().namespace())
        .isNull();
    assertThatThrownBy(() -> FleetConfig.parse(base + "poolImports: {namespace: Models_1}\n"))
        .hasMessageContaining("poolImports.namespace: 'Models_1' (expected a namespace name");
  }

  @Test
  void aClustersRegionIsOptionalAndNotBlank() {
    assertThat(
            FleetConfig.parse("regions: [us, eu]\n" + SUMMARIES + CLUSTER)
                .clusters()
                .getFirst()
                .region())
        .isNull();
    assertThat(
            FleetConfig.parse(
                    "regions: [us, eu]\n"
                        + SUMMARIES
                        + CLUSTER.replace("tier: spot,", "tier: spot, region: us-east,"))
                .clusters()
                .getFirst()
                .region())
        .isEqualTo("us-east");
    assertThatThrownBy(
            () ->
                FleetConfig.parse(
                    "regions: [us, eu]\n"
                        + SUMMARIES
                        + CLUSTER.replace("tier: spot,", "tier: spot, region: ' ',")))
        .hasMessageContaining("region: ''");
  }

  @Test
  void aRegionWithoutARoundTripIsAnErrorNamingTheCluster() {
    assertThatThrownBy(() -> FleetConfig.parse("regions: [us, ap]\n" + SUMMARIES + CLUSTER))
        .hasMessageContaining("clusters[0].rttMillis: no 'ap'");
  }

  @Test
  void anUnknownTierIsAnErrorNamingTheChoices() {
    assertThatThrownBy(
            () ->
                FleetConfig.parse(
                    "regions: [us, eu]\n" + SUMMARIES + CLUSTER.replace("spot", "preemptible")))
        .hasMessageContaining("tier: 'preemptible' (expected one of [spot, reserved, on-demand])");
  }

  @Test
  void summariesWithoutClientCertificatesAreRefused() {
    assertThatThrownBy(
            () -> FleetConfig.parse("regions: [us, eu]\nsummaries: {certChain: f.crt}\n" + CLUSTER))
        .hasMessageContaining("mutual TLS only");
  }

  @Test
  void aGatewayThatIsNotHostPortIsRefused() {
    assertThatThrownBy(
            () ->
                FleetConfig.parse(
                    "regions: [us, eu]\n"
                        + SUMMARIES
                        + CLUSTER.replace("10.0.0.1:8443", "10.0.0.1")))
        .hasMessageContaining("gateway: '10.0.0.1' (expected host:port)");
  }

  @Test
  void duplicateClusterNamesAreRefused() {
    String two = CLUSTER + CLUSTER.substring(CLUSTER.indexOf("  -"));
    assertThatThrownBy(() -> FleetConfig.parse("regions: [us, eu]\n" + SUMMARIES + two))
        .hasMessageContaining("clusters[1].name: 'east' (already used by another cluster)");
  }

  @Test
  void anUnknownKeyIsRefused() {
    assertThatThrownBy(() -> FleetConfig.parse("regions: [us, eu]\nslo: 3\n" + SUMMARIES + CLUSTER))
        .hasMessageContaining("slo");
  }
}
