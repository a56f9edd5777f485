package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
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
    assertThat(picker.getSpec().getIngress()).hasSize(2);
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
  void envoyAcceptsOnlyTheAllowedCidrs() {
    NetworkPolicy envoy = Chart.defaults().get(NetworkPolicy.class, "pointsman-envoy");

    assertThat(envoy.getSpec().getIngress())
        .singleElement()
        .satisfies(
            rule -> {
              assertThat(rule.getFrom())
                  .extracting(p -> p.getIpBlock().getCidr())
                  .containsExactly("10.0.0.0/8");
              assertThat(rule.getPorts())
                  .extracting(p -> p.getPort().getStrVal())
                  .containsExactlyInAnyOrder("https", "http-health");
            });
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

  @Test
  void canBeTurnedOff() {
    assertThat(Chart.render("networkPolicy: {enabled: false}").all(NetworkPolicy.class)).isEmpty();
  }
}
