package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.config.ReplicationSection;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With more than one picker replica the chart makes them share state: a headless Service that lists
 * every picker pod (ready or not) for JGroups' DNS discovery, the replication port on the pod, the
 * pod's IP as the bind address, and a NetworkPolicy rule that lets only picker pods reach that
 * port.
 */
class ReplicationChartTest {
  private static final String PICKER = "pointsman-picker";
  private static final String PEERS = "pointsman-picker-peers";

  private static Container container(Rendered r) {
    return r.get(Deployment.class, PICKER).getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  private static ReplicationSection replication(Rendered r) {
    return PickerConfig.parse(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml"))
        .replication();
  }

  private static List<NetworkPolicyIngressRule> rulesFor(Rendered r, String port) {
    return r.get(NetworkPolicy.class, PICKER).getSpec().getIngress().stream()
        .filter(
            rule -> rule.getPorts().stream().anyMatch(p -> port.equals(p.getPort().getStrVal())))
        .toList();
  }

  @Test
  void twoReplicasShareStateThroughTheirOwnHeadlessService() {
    Rendered r = Chart.defaults();
    Service peers = r.get(Service.class, PEERS);
    var podLabels =
        r.get(Deployment.class, PICKER).getSpec().getTemplate().getMetadata().getLabels();

    assertThat(peers.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(peers.getSpec().getPublishNotReadyAddresses()).isTrue();
    assertThat(podLabels).containsAllEntriesOf(peers.getSpec().getSelector());
    assertThat(peers.getSpec().getPorts())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.getPort()).isEqualTo(7800);
              assertThat(p.getTargetPort().getStrVal()).isEqualTo("replication");
            });
    assertThat(container(r).getPorts())
        .filteredOn(p -> p.getName().equals("replication"))
        .singleElement()
        .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(7800));

    ReplicationSection cfg = replication(r);
    assertThat(cfg.enabled()).isTrue();
    assertThat(cfg.cluster()).isEqualTo(PICKER);
    assertThat(cfg.discovery().dnsQuery()).isEqualTo(PEERS + ".pointsman.svc.cluster.local");
    assertThat(cfg.bindPort()).isEqualTo(7800);
    assertThat(cfg.expectedMembers()).isEqualTo(2);
  }

  @Test
  void theReplicaBindsItsPodIp() {
    Container c = container(Chart.defaults());

    assertThat(c.getEnv())
        .filteredOn(e -> e.getName().equals("POD_IP"))
        .singleElement()
        .extracting(EnvVar::getValueFrom)
        .satisfies(v -> assertThat(v.getFieldRef().getFieldPath()).isEqualTo("status.podIP"));
    List<String> args = c.getArgs();
    assertThat(args.get(args.indexOf("--replication-bind") + 1)).isEqualTo("$(POD_IP)");
  }

  @Test
  void onlyPickerPodsReachTheReplicationPort() {
    Rendered r = Chart.defaults();
    var podLabels =
        r.get(Deployment.class, PICKER).getSpec().getTemplate().getMetadata().getLabels();

    assertThat(rulesFor(r, "replication"))
        .singleElement()
        .satisfies(
            rule -> {
              assertThat(rule.getPorts()).singleElement();
              assertThat(rule.getFrom())
                  .singleElement()
                  .satisfies(
                      peer -> {
                        assertThat(peer.getNamespaceSelector()).isNull();
                        assertThat(peer.getIpBlock()).isNull();
                        assertThat(podLabels)
                            .containsAllEntriesOf(peer.getPodSelector().getMatchLabels());
                        assertThat(peer.getPodSelector().getMatchLabels())
                            .containsEntry("app.kubernetes.io/component", "picker");
                      });
            });
  }

  @Test
  void theKnobsReachThePickerConfig() {
    Rendered r =
        Chart.render(
            """
            picker:
              replicas: 3
              replication: {port: 7900, batchMillis: 20, stateTimeoutMillis: 9000,
                failureMillis: 4000, mergeMillis: 6000, staleMillis: 2000}
            """);
    ReplicationSection cfg = replication(r);

    assertThat(cfg.bindPort()).isEqualTo(7900);
    assertThat(cfg.batchMillis()).isEqualTo(20);
    assertThat(cfg.stateTimeoutMillis()).isEqualTo(9000);
    assertThat(cfg.failureMillis()).isEqualTo(4000);
    assertThat(cfg.mergeMillis()).isEqualTo(6000);
    assertThat(cfg.staleMillis()).isEqualTo(2000);
    assertThat(cfg.expectedMembers()).isEqualTo(3);
    assertThat(r.get(Service.class, PEERS).getSpec().getPorts().get(0).getPort()).isEqualTo(7900);
    assertThat(container(r).getPorts())
        .filteredOn(p -> p.getName().equals("replication"))
        .singleElement()
        .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(7900));
  }

  @Test
  void withAutoscalingTheReplicaCountIsNotExpected() {
    Rendered r = Chart.render("picker: {autoscaling: {enabled: true}}");

    assertThat(replication(r).enabled()).isTrue();
    assertThat(replication(r).expectedMembers()).isZero();
  }

  @Test
  void turnedOffThereIsNoPeerServicePortOrRule() {
    Rendered r = Chart.render("picker: {replication: {enabled: false}}");

    assertThat(r.find(Service.class, PEERS)).isEmpty();
    assertThat(replication(r).enabled()).isFalse();
    assertThat(container(r).getPorts()).extracting(p -> p.getName()).doesNotContain("replication");
    assertThat(container(r).getArgs()).doesNotContain("--replication-bind");
    assertThat(container(r).getEnv()).extracting(EnvVar::getName).doesNotContain("POD_IP");
    assertThat(rulesFor(r, "replication")).isEmpty();
  }

  @Test
  void anUnknownSettingIsRefusedByTheSchema() {
    assertThatThrownBy(() -> Chart.render("picker: {replication: {enabled: sometimes}}"))
        .hasMessageContaining("enabled");
    assertThatThrownBy(() -> Chart.render("picker: {replication: {port: 0}}"))
        .hasMessageContaining("port");
  }
}
