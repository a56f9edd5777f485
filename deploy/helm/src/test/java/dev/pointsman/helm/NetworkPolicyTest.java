package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Only Envoy reaches the picker's gRPC port, only Prometheus its metrics, only the VPC Envoy. */
class NetworkPolicyTest {

  private static NetworkPolicyIngressRule ruleForPort(NetworkPolicy policy, String port) {
    return policy.getSpec().getIngress().stream()
        .filter(r -> r.getPorts().stream().anyMatch(p -> port.equals(p.getPort().getStrVal())))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no ingress rule for port " + port));
  }

  @Test
  void thePickerAcceptsStreamsOnlyFromEnvoyAndScrapesOnlyFromPrometheus() {
    Rendered r = Chart.defaults();
    NetworkPolicy picker = r.get(NetworkPolicy.class, "pointsman-picker");
    var envoyLabels =
        r.get(Deployment.class, "pointsman-envoy")
            .getSpec()
            .getTemplate()
            .getMetadata()
            .getLabels();
    var pickerLabels =
        r.get(Deployment.class, "pointsman-picker")
            .getSpec()
            .getTemplate()
            .getMetadata()
            .getLabels();

    assertThat(picker.getSpec().getPolicyTypes()).containsExactly("Ingress");
    assertThat(pickerLabels)
        .containsAllEntriesOf(picker.getSpec().getPodSelector().getMatchLabels());
    assertThat(picker.getSpec().getIngress()).hasSize(3); // and the replicas among themselves
    var grpc = ruleForPort(picker, "grpc");
    assertThat(grpc.getFrom())
        .singleElement()
        .satisfies(
            peer -> {
              assertThat(peer.getIpBlock()).isNull();
              assertThat(peer.getNamespaceSelector()).isNull();
              assertThat(envoyLabels).containsAllEntriesOf(peer.getPodSelector().getMatchLabels());
              assertThat(peer.getPodSelector().getMatchLabels())
                  .containsEntry("app.kubernetes.io/component", "gateway");
            });
    var metrics = ruleForPort(picker, "http-admin");
    assertThat(metrics.getFrom())
        .singleElement()
        .satisfies(
            peer ->
                assertThat(peer.getNamespaceSelector().getMatchLabels())
                    .containsEntry("kubernetes.io/metadata.name", "monitoring"));
  }

  @Test
  void theFleetTierAcceptsStreamsOnlyFromItsEnvoyAndSharesBudgetsOnlyWithItsReplicas() {
    Rendered r = Scenarios.FLEET.render();
    NetworkPolicy fleet = r.get(NetworkPolicy.class, "pointsman-fleet");
    NetworkPolicy fleetEnvoy = r.get(NetworkPolicy.class, "pointsman-fleet-envoy");
    var envoyLabels =
        r.get(Deployment.class, "pointsman-fleet-envoy")
            .getSpec()
            .getTemplate()
            .getMetadata()
            .getLabels();
    var fleetLabels =
        r.get(Deployment.class, "pointsman-fleet")
            .getSpec()
            .getTemplate()
            .getMetadata()
            .getLabels();

    assertThat(fleetLabels).containsAllEntriesOf(fleet.getSpec().getPodSelector().getMatchLabels());
    assertThat(fleet.getSpec().getIngress()).hasSize(3);
    assertThat(ruleForPort(fleet, "grpc").getFrom())
        .singleElement()
        .satisfies(
            peer -> {
              assertThat(envoyLabels).containsAllEntriesOf(peer.getPodSelector().getMatchLabels());
              assertThat(fleetLabels)
                  .doesNotContainEntry("app.kubernetes.io/component", "fleet-envoy");
            });
    assertThat(ruleForPort(fleet, "replication").getFrom())
        .singleElement()
        .satisfies(
            peer ->
                assertThat(fleetLabels)
                    .containsAllEntriesOf(peer.getPodSelector().getMatchLabels()));
    assertThat(ruleForPort(fleet, "http-admin").getFrom())
        .singleElement()
        .satisfies(peer -> assertThat(peer.getNamespaceSelector()).isNotNull());
    assertThat(ruleForPort(fleetEnvoy, "https").getFrom())
        .allSatisfy(peer -> assertThat(peer.getIpBlock()).isNotNull())
        .isNotEmpty();
    assertThat(envoyLabels)
        .containsAllEntriesOf(fleetEnvoy.getSpec().getPodSelector().getMatchLabels());
  }

  @Test
  void envoyAcceptsOnlyTheAllowedCidrs() {
    NetworkPolicy envoy = Chart.defaults().get(NetworkPolicy.class, "pointsman-envoy");

    assertThat(envoy.getSpec().getIngress()).hasSize(2);
    var clients = envoy.getSpec().getIngress().get(0);
    assertThat(clients.getFrom())
        .extracting(p -> p.getIpBlock().getCidr())
        .containsExactly("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10");
    assertThat(clients.getPorts())
        .extracting(p -> p.getPort().getStrVal())
        .containsExactlyInAnyOrder("https", "http-health");
    // Prometheus reads Envoy's stats on the health port, and nothing else
    var prometheus = envoy.getSpec().getIngress().get(1);
    assertThat(prometheus.getFrom())
        .singleElement()
        .satisfies(
            peer ->
                assertThat(peer.getNamespaceSelector().getMatchLabels())
                    .containsEntry("kubernetes.io/metadata.name", "monitoring"));
    assertThat(prometheus.getPorts())
        .extracting(p -> p.getPort().getStrVal())
        .containsExactly("http-health");
  }

  @Test
  void behindAnotherGatewayTheConfiguredPeersReachThePicker() {
    NetworkPolicy picker =
        Scenarios.BOUND_POOL.render().get(NetworkPolicy.class, "pointsman-picker");

    assertThat(ruleForPort(picker, "grpc").getFrom())
        .singleElement()
        .satisfies(
            peer ->
                assertThat(peer.getNamespaceSelector().getMatchLabels())
                    .containsEntry("kubernetes.io/metadata.name", "istio-system"));
  }

  /** Whether IPv4 {@code ip} is in {@code cidr}. */
  private static boolean contains(String cidr, String ip) {
    String[] parts = cidr.split("/");
    int bits = Integer.parseInt(parts[1]);
    long mask = bits == 0 ? 0 : (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
    return (ipv4(parts[0]) & mask) == (ipv4(ip) & mask);
  }

  private static long ipv4(String ip) {
    long v = 0;
    for (String octet : ip.split("\\.")) {
      v = (v << 8) | Integer.parseInt(octet);
    }
    return v;
  }

  @Test
  void theDefaultsAdmitLoadBalancersInEveryPrivateVpcRange() {
    var cidrs =
        Chart.defaults().get(NetworkPolicy.class, "pointsman-envoy").getSpec().getIngress().stream()
            .flatMap(rule -> rule.getFrom().stream())
            .filter(peer -> peer.getIpBlock() != null)
            .map(peer -> peer.getIpBlock().getCidr())
            .toList();

    // eksctl's default VPC, the classic 10/8 and 172.16/12 VPCs, EKS custom networking's 100.64/10
    for (String nlbNode : List.of("192.168.45.7", "10.20.1.9", "172.31.0.5", "100.64.3.4")) {
      assertThat(cidrs).as(nlbNode).anyMatch(cidr -> contains(cidr, nlbNode));
    }
    assertThat(cidrs).noneMatch(cidr -> contains(cidr, "8.8.8.8"));
  }

  @Test
  void withEnvoyOffAndNoPeersAnotherGatewayStillReachesThePicker() {
    NetworkPolicy picker =
        Chart.render("envoy: {enabled: false}").get(NetworkPolicy.class, "pointsman-picker");

    assertThat(ruleForPort(picker, "grpc").getFrom()).isNullOrEmpty(); // every source
    assertThat(ruleForPort(picker, "http-admin").getFrom()).isNotEmpty(); // metrics stay closed
  }

  @Test
  void theGrpcHealthPortIsOpenToNoPod() {
    // The kubelet probes from the node, which a NetworkPolicy always admits; pods get nothing.
    NetworkPolicy picker =
        Scenarios.GRPC_PROBES.render().get(NetworkPolicy.class, "pointsman-picker");

    assertThat(picker.getSpec().getIngress())
        .flatExtracting(NetworkPolicyIngressRule::getPorts)
        .extracting(p -> p.getPort().getStrVal())
        .containsExactlyInAnyOrder("grpc", "replication", "http-admin");
  }

  @Test
  void canBeTurnedOff() {
    assertThat(Chart.render("networkPolicy: {enabled: false}").all(NetworkPolicy.class)).isEmpty();
  }
}
