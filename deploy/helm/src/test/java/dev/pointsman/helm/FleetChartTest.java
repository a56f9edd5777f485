package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.picker.config.PickerConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * fleet.enabled installs the fleet tier (docs/fleet.md): its config from fleet.config over the
 * chart's listeners and TLS files, a Deployment, a headless Service. picker.summary.enabled makes a
 * cluster's picker publish its summary on a port, Service and NetworkPolicy rule of their own.
 * fleet.config.poolImports gives the fleet an account that may list and watch InferencePoolImports.
 */
class FleetChartTest {
  private static final String FLEET = "pointsman-fleet";
  private static final String PICKER = "pointsman-picker";

  private static Container container(Rendered r, String deployment) {
    return r.get(Deployment.class, deployment)
        .getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .getFirst();
  }

  private static List<String> secrets(Rendered r, String deployment) {
    return r
        .get(Deployment.class, deployment)
        .getSpec()
        .getTemplate()
        .getSpec()
        .getVolumes()
        .stream()
        .filter(v -> v.getSecret() != null)
        .map(Volume::getSecret)
        .map(s -> s.getSecretName())
        .toList();
  }

  @Test
  void byDefaultThereIsNoFleetTierAndNoSummary() {
    Rendered r = Chart.defaults();

    assertThat(r.find(Deployment.class, FLEET)).isEmpty();
    assertThat(r.find(Service.class, FLEET)).isEmpty();
    assertThat(r.find(Service.class, "pointsman-picker-summary")).isEmpty();
    assertThat(container(r, PICKER).getPorts())
        .extracting(ContainerPort::getName)
        .doesNotContain("summary");
    assertThat(
            PickerConfig.parse(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml"))
                .summary()
                .enabled())
        .isFalse();
  }

  @Test
  void theFleetConfigIsTheUsersOverTheChartsListenersAndTlsFiles() {
    Rendered r = Scenarios.FLEET.render();

    FleetConfig c = FleetConfig.parse(r.get(ConfigMap.class, FLEET).getData().get("fleet.yaml"));

    assertThat(c.grpc().port()).isEqualTo(9010);
    assertThat(c.grpc().host()).isEqualTo("0.0.0.0");
    assertThat(c.grpc().tls()).isEqualTo("files");
    assertThat(c.grpc().certChain()).isEqualTo("/etc/pointsman/tls/tls.crt");
    assertThat(c.summaries().caFile()).isEqualTo("/etc/pointsman/summaries/ca.crt");
    assertThat(c.summaries().certChain()).isEqualTo("/etc/pointsman/summaries/tls.crt");
    assertThat(c.sloTtftMillis()).isEqualTo(1500);
    assertThat(c.clusters())
        .singleElement()
        .satisfies(k -> assertThat(k.name()).isEqualTo("us-east-spot"));
  }

  @Test
  void theFleetRunsTheFleetRoleWithItsSecretsMountedAndAHeadlessService() {
    Rendered r = Scenarios.FLEET.render();
    Container fleet = container(r, FLEET);
    Service service = r.get(Service.class, FLEET);

    assertThat(fleet.getArgs())
        .containsExactly(
            "fleet", "--config", "/etc/pointsman/fleet.yaml", "--replication-bind", "$(POD_IP)");
    assertThat(fleet.getPorts())
        .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .contains(
            org.assertj.core.groups.Tuple.tuple("grpc", 9010),
            org.assertj.core.groups.Tuple.tuple("http-admin", 9011));
    assertThat(fleet.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(secrets(r, FLEET)).containsExactlyInAnyOrder("fleet-tls", "fleet-summaries");
    assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(r.get(Deployment.class, FLEET).getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(service.getSpec().getSelector());
  }

  @Test
  void twoFleetReplicasShareTheirBudgetsThroughAPeersServiceAndOneDoesNot() {
    Rendered two = Scenarios.FLEET.render();
    FleetConfig shared =
        FleetConfig.parse(two.get(ConfigMap.class, FLEET).getData().get("fleet.yaml"));
    Service peers = two.get(Service.class, "pointsman-fleet-peers");

    assertThat(shared.replication().enabled()).isTrue();
    assertThat(shared.replication().cluster()).isEqualTo(FLEET);
    assertThat(shared.replication().expectedMembers()).isEqualTo(2);
    assertThat(shared.replication().discovery().dnsQuery())
        .isEqualTo("pointsman-fleet-peers.pointsman.svc.cluster.local");
    assertThat(peers.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(peers.getSpec().getPublishNotReadyAddresses()).isTrue();
    assertThat(peers.getSpec().getPorts().getFirst().getTargetPort().getStrVal())
        .isEqualTo("replication");
    assertThat(container(two, FLEET).getPorts())
        .extracting(ContainerPort::getName)
        .contains("replication");
    assertThat(container(two, FLEET).getEnv())
        .extracting(e -> e.getName())
        .contains("POD_NAME", "POD_IP");

    Rendered one =
        Chart.render(
            Scenarios.FLEET.values().replace("enabled: true\n", "enabled: true\n  replicas: 1\n"));
    assertThat(
            FleetConfig.parse(one.get(ConfigMap.class, FLEET).getData().get("fleet.yaml"))
                .replication()
                .enabled())
        .isFalse();
    assertThat(one.find(Service.class, "pointsman-fleet-peers")).isEmpty();
    assertThat(container(one, FLEET).getArgs()).doesNotContain("--replication-bind");
  }

  @Test
  void aPublishingPickerServesItsSummaryOnAPortServiceAndRuleOfItsOwn() {
    Rendered r = Scenarios.FLEET.render();
    PickerConfig picker =
        PickerConfig.parse(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml"));
    Service summary = r.get(Service.class, "pointsman-picker-summary");
    NetworkPolicy policy = r.get(NetworkPolicy.class, PICKER);

    assertThat(picker.summary().enabled()).isTrue();
    assertThat(picker.summary().cluster()).isEqualTo("us-east-spot");
    assertThat(picker.summary().clientCa()).isEqualTo("/etc/pointsman/summary/ca.crt");
    assertThat(container(r, PICKER).getPorts())
        .filteredOn(p -> "summary".equals(p.getName()))
        .singleElement()
        .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(9004));
    assertThat(secrets(r, PICKER)).contains("picker-summary-tls");
    assertThat(summary.getSpec().getType()).isEqualTo("LoadBalancer");
    assertThat(summary.getSpec().getPorts().getFirst().getTargetPort().getStrVal())
        .isEqualTo("summary");
    assertThat(policy.getSpec().getIngress())
        .anySatisfy(
            rule ->
                assertThat(rule.getPorts())
                    .anySatisfy(p -> assertThat(p.getPort().getStrVal()).isEqualTo("summary")));
  }

  @Test
  void withoutPoolImportsTheFleetHasNoKubernetesIdentity() {
    Rendered r = Scenarios.FLEET.render();

    assertThat(
            r.get(Deployment.class, FLEET)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getAutomountServiceAccountToken())
        .isFalse();
    assertThat(r.find(ServiceAccount.class, FLEET)).isEmpty();
    assertThat(r.find(Role.class, FLEET)).isEmpty();
    assertThat(r.find(RoleBinding.class, FLEET)).isEmpty();
  }

  @Test
  void poolImportsGiveTheFleetItsOwnAccountWithListAndWatchOnThemOnly() {
    Rendered r =
        Chart.render(
            Scenarios.FLEET.values() + "    poolImports: {enabled: true, namespace: models}\n");
    var pod = r.get(Deployment.class, FLEET).getSpec().getTemplate().getSpec();
    Role role = r.get(Role.class, FLEET);
    RoleBinding binding = r.get(RoleBinding.class, FLEET);

    assertThat(
            FleetConfig.parse(r.get(ConfigMap.class, FLEET).getData().get("fleet.yaml"))
                .poolImports())
        .satisfies(
            p -> {
              assertThat(p.enabled()).isTrue();
              assertThat(p.namespace()).isEqualTo("models");
            });
    assertThat(pod.getServiceAccountName()).isEqualTo(FLEET);
    assertThat(pod.getAutomountServiceAccountToken()).isTrue();
    assertThat(r.get(ServiceAccount.class, FLEET).getMetadata().getNamespace())
        .isEqualTo(Chart.NAMESPACE);
    assertThat(role.getMetadata().getNamespace()).isEqualTo("models");
    assertThat(RbacTest.permissions(role.getRules()))
        .containsExactlyInAnyOrder(
            "inference.networking.x-k8s.io/inferencepoolimports:list",
            "inference.networking.x-k8s.io/inferencepoolimports:watch");
    assertThat(binding.getMetadata().getNamespace()).isEqualTo("models");
    RbacTest.assertGivesRoleToAccountOnly(binding, FLEET, FLEET);
    assertThat(
            Chart.render(Scenarios.FLEET.values() + "    poolImports: {enabled: true}\n")
                .get(Role.class, FLEET)
                .getMetadata()
                .getNamespace())
        .as("the fleet's own namespace by default")
        .isEqualTo(Chart.NAMESPACE);
  }

  @Test
  void aFleetWithoutItsSecretsOrClustersIsRefusedNamingTheKeys() {
    assertThatThrownBy(() -> Chart.template("r", "ns", "fleet: {enabled: true}"))
        .hasMessageContaining("fleet.tlsSecretName")
        .hasMessageContaining("fleet.summariesSecretName");
    assertThatThrownBy(
            () ->
                Chart.template(
                    "r", "ns", "fleet: {enabled: true, tlsSecretName: a, summariesSecretName: b}"))
        .hasMessageContaining("fleet.config.regions and fleet.config.clusters");
    assertThatThrownBy(() -> Chart.template("r", "ns", "picker: {summary: {enabled: true}}"))
        .hasMessageContaining("picker.summary.secretName");
  }
}
