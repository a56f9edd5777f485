package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.helm.Scenarios.Scenario;
import dev.pointsman.picker.envoy.EnvoyConfigRules;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The Envoy Deployment, its ConfigMap (the same config as deploy/envoy), Service and TLS. */
class EnvoyGatewayTest {
  private static final String ENVOY = "pointsman-envoy";
  private static final Path SHIPPED = Chart.REPO.resolve("deploy/envoy");
  private static final Path COPY = Chart.DIR.resolve("files/envoy");

  static Stream<Scenario> withEnvoy() {
    return Scenarios.all().stream().filter(s -> s != Scenarios.BOUND_POOL);
  }

  private static Map<String, String> configMap(Rendered r) {
    return r.get(ConfigMap.class, ENVOY).getData();
  }

  private static PodSpec pod(Rendered r) {
    return r.get(Deployment.class, ENVOY).getSpec().getTemplate().getSpec();
  }

  @Test
  void theChartsCopyOfTheEnvoyConfigIsIdenticalToDeployEnvoy() {
    for (String file : List.of("envoy.yaml", "sds/gateway-tls.yaml", "sds/picker-ca.yaml")) {
      assertThat(Chart.read(COPY.resolve(file)))
          .as(
              "deploy/helm/pointsman/files/envoy/%s must equal deploy/envoy/%s (copy it)",
              file, file)
          .isEqualTo(Chart.read(SHIPPED.resolve(file)));
    }
  }

  @Test
  void theDefaultRenderIsExactlyDeployEnvoy() {
    Map<String, String> data = configMap(Chart.defaults());

    assertThat(data.get("envoy.yaml")).isEqualTo(Chart.read(SHIPPED.resolve("envoy.yaml")));
    assertThat(data.get("gateway-tls.yaml"))
        .isEqualTo(Chart.read(SHIPPED.resolve("sds/gateway-tls.yaml")));
    assertThat(data.get("picker-ca.yaml"))
        .isEqualTo(Chart.read(SHIPPED.resolve("sds/picker-ca.yaml")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("withEnvoy")
  void theRenderedConfigPassesTheSameValidationAsDeployEnvoy(Scenario scenario) {
    Map<String, String> data = configMap(scenario.render());

    Bootstrap bootstrap = EnvoyConfigRules.assertValid(data.get("envoy.yaml"));
    EnvoyConfigRules.assertSdsFiles(
        bootstrap,
        path -> path.startsWith("/etc/envoy/sds/") ? data.get(path.substring(15)) : null);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("withEnvoy")
  void theRenderedConfigRoutesOnlyTheInferenceApi(Scenario scenario) {
    Bootstrap bootstrap = EnvoyConfigRules.parse(configMap(scenario.render()).get("envoy.yaml"));
    var hcm =
        EnvoyConfigRules.connectionManagers(EnvoyConfigRules.gatewayListeners(bootstrap).get(0))
            .get(0);
    var host = hcm.getRouteConfig().getVirtualHosts(0);

    EnvoyConfigRules.assertOnlyInferenceIsRouted("rendered: ", hcm, host);
    assertThat(EnvoyConfigRules.firstMatch(host, "POST", "/v1/load_lora_adapter", true).getName())
        .isEqualTo("not-inference");
    assertThat(EnvoyConfigRules.firstMatch(host, "POST", "/v1/chat/completions", true).getName())
        .isEqualTo("picked");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"'', ::, true", "DualStack, ::, true", "IPv4, 0.0.0.0, false", "IPv6, ::, false"})
  void envoyIpFamilySetsTheAddressOfBothListeners(String family, String address, boolean compat) {
    Rendered r = Chart.render(family.isEmpty() ? "" : "envoy: {ipFamily: " + family + "}");
    Bootstrap bootstrap = EnvoyConfigRules.assertValid(configMap(r).get("envoy.yaml"));

    assertThat(bootstrap.getStaticResources().getListenersList())
        .extracting(l -> l.getName() + " " + l.getAddress().getSocketAddress().getAddress())
        .containsExactly("https " + address, "health " + address);
    assertThat(bootstrap.getStaticResources().getListenersList())
        .allSatisfy(
            l -> {
              assertThat(l.getAddress().getSocketAddress().getIpv4Compat()).isEqualTo(compat);
              assertThat(l.getAddress().getSocketAddress().getPortValue()).isIn(8443, 8081);
            });
  }

  @Test
  void anUnknownIpFamilyIsRefused() {
    assertThatThrownBy(() -> Chart.render("envoy: {ipFamily: ipv6}"))
        .hasMessageContaining("ipFamily");
  }

  @Test
  void anotherReleaseAndNamespaceRenameThePickerEverywhere() throws Exception {
    Rendered r =
        Chart.render(
            "gw",
            "llm",
            "envoy: {failureModeAllow: true, defaultService: {host: base.models.svc.cluster.local, port: 8080}}");
    Map<String, String> data = r.get(ConfigMap.class, "gw-pointsman-envoy").getData();
    Bootstrap bootstrap = EnvoyConfigRules.assertValid(data.get("envoy.yaml"));

    Cluster picker = EnvoyConfigRules.cluster(bootstrap, "pointsman-picker");
    var address =
        picker.getLoadAssignment().getEndpoints(0).getLbEndpoints(0).getEndpoint().getAddress();
    assertThat(address.getSocketAddress().getAddress())
        .isEqualTo("gw-pointsman-picker-headless.llm.svc.cluster.local");
    assertThat(address.getSocketAddress().getPortValue()).isEqualTo(9002);
    UpstreamTlsContext tls =
        picker.getTransportSocket().getTypedConfig().unpack(UpstreamTlsContext.class);
    assertThat(tls.getSni()).isEqualTo("gw-pointsman-picker.llm.svc");
    assertThat(data.get("envoy.yaml"))
        .doesNotContain("pointsman-picker.pointsman.svc")
        .doesNotContain("vllm-default");
    assertThat(EnvoyConfigRules.failureModeAllow(bootstrap)).isTrue();
    var fallback =
        EnvoyConfigRules.firstAddress(EnvoyConfigRules.cluster(bootstrap, "default-models"));
    assertThat(fallback.getAddress()).isEqualTo("base.models.svc.cluster.local");
    assertThat(fallback.getPortValue()).isEqualTo(8080);
    // The picker's certificate names what Envoy checks.
    assertThat(r.get(Service.class, "gw-pointsman-picker").getMetadata().getNamespace())
        .isEqualTo("llm");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("withEnvoy")
  void runsHardenedWithTheFilesWhereTheConfigLooksForThem(Scenario scenario) {
    Rendered r = scenario.render();
    PodSpec pod = pod(r);
    Container envoy = pod.getContainers().getFirst();

    Security.assertRestricted(pod);
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    assertThat(envoy.getArgs()).contains("--config-path", "/etc/envoy/envoy.yaml");
    assertThat(envoy.getVolumeMounts())
        .extracting(VolumeMount::getMountPath)
        .contains(
            "/etc/envoy/envoy.yaml",
            "/etc/envoy/sds",
            "/etc/envoy/tls",
            "/etc/envoy/picker-ca",
            "/tmp");
    // The SDS directory is a whole-directory mount: Envoy's watched_directory sees the kubelet's
    // symlink swap only there (a subPath mount never updates).
    assertThat(envoy.getVolumeMounts())
        .filteredOn(m -> m.getMountPath().equals("/etc/envoy/sds"))
        .singleElement()
        .satisfies(m -> assertThat(m.getSubPath()).isNull());
    var volumes = pod.getVolumes();
    var gatewayTls =
        volumes.stream().filter(v -> v.getName().equals("gateway-tls")).findFirst().get();
    var pickerCa = volumes.stream().filter(v -> v.getName().equals("picker-ca")).findFirst().get();
    assertThat(gatewayTls.getSecret().getItems())
        .extracting(i -> i.getKey())
        .containsExactly("tls.crt", "tls.key");
    // Envoy never mounts the picker's private key.
    assertThat(pickerCa.getSecret().getItems())
        .extracting(i -> i.getKey())
        .containsExactly("ca.crt");
    assertThat(envoy.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/ready");
    assertThat(envoy.getReadinessProbe().getHttpGet().getPort().getStrVal())
        .isEqualTo("http-health");
    assertThat(envoy.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/live");
    assertThat(envoy.getLifecycle().getPreStop().getSleep().getSeconds()).isPositive();
    assertThat(envoy.getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(envoy.getResources().getLimits()).containsKey("memory");
  }

  @Test
  void theServiceIsAPrivateEksNetworkLoadBalancer() {
    Service svc = Chart.defaults().get(Service.class, ENVOY);

    assertThat(svc.getSpec().getType()).isEqualTo("LoadBalancer");
    assertThat(svc.getMetadata().getAnnotations())
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-scheme", "internal")
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-type", "external")
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-nlb-target-type", "ip")
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-healthcheck-path", "/ready")
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-healthcheck-port", "8081");
    assertThat(svc.getSpec().getPorts())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.getPort()).isEqualTo(443);
              assertThat(p.getTargetPort().getStrVal()).isEqualTo("https");
            });
  }

  @Test
  void userAnnotationsAndSourceRangesAddToTheInternalOnes() {
    Service svc = Scenarios.EVERYTHING_ON.render().get(Service.class, ENVOY);

    assertThat(svc.getMetadata().getAnnotations())
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-scheme", "internal")
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-subnets", "subnet-a,subnet-b");
    assertThat(svc.getSpec().getLoadBalancerSourceRanges()).containsExactly("10.20.0.0/16");
  }

  @Test
  void userSecretsReplaceGeneratedOnes() {
    Rendered r = Scenarios.EVERYTHING_ON.render();
    var volumes = pod(r).getVolumes();

    assertThat(r.all(Secret.class)).isEmpty();
    assertThat(volumes)
        .anySatisfy(
            v ->
                assertThat(v.getSecret() == null ? null : v.getSecret().getSecretName())
                    .isEqualTo("my-gateway-tls"))
        .anySatisfy(
            v ->
                assertThat(v.getSecret() == null ? null : v.getSecret().getSecretName())
                    .isEqualTo("my-picker-tls"));
  }

  @Test
  void certManagerIssuesBothCertificates() {
    Rendered r = Scenarios.CERT_MANAGER.render();
    var certificates = r.ofKind("cert-manager.io/v1", "Certificate");

    assertThat(r.all(Secret.class)).isEmpty();
    assertThat(certificates)
        .extracting(c -> c.getMetadata().getName())
        .containsExactlyInAnyOrder(
            "pointsman-picker-ca", "pointsman-picker-tls", "pointsman-gateway-tls");
    var gateway =
        (io.fabric8.kubernetes.api.model.GenericKubernetesResource)
            certificates.stream()
                .filter(c -> c.getMetadata().getName().equals("pointsman-gateway-tls"))
                .findFirst()
                .get();
    assertThat(gateway.<String>get("spec", "issuerRef", "name")).isEqualTo("corp-ca");
    assertThat(gateway.<String>get("spec", "issuerRef", "kind")).isEqualTo("ClusterIssuer");
    assertThat(gateway.<List<String>>get("spec", "dnsNames"))
        .containsExactly(
            "llm.internal.example.com",
            "pointsman-envoy.pointsman.svc",
            "pointsman-envoy.pointsman.svc.cluster.local");
    var picker =
        (io.fabric8.kubernetes.api.model.GenericKubernetesResource)
            certificates.stream()
                .filter(c -> c.getMetadata().getName().equals("pointsman-picker-tls"))
                .findFirst()
                .get();
    assertThat(picker.<List<String>>get("spec", "dnsNames"))
        .contains("pointsman-picker.pointsman.svc");
    assertThat(picker.<String>get("spec", "issuerRef", "name")).isEqualTo("pointsman-picker-ca");
  }

  @Test
  void certManagerForTheGatewayNeedsAnIssuer() {
    assertThatThrownBy(() -> Chart.render("envoy: {tls: {mode: certManager}}"))
        .hasMessageContaining("envoy.tls.certManager.issuerRef.name is required");
  }

  @Test
  void aUserSecretNeedsAName() {
    assertThatThrownBy(() -> Chart.render("envoy: {tls: {mode: secret}}"))
        .hasMessageContaining("envoy.tls.secretName is required");
  }

  @Test
  void envoyHasADisruptionBudgetAndCanBeTurnedOff() {
    assertThat(Chart.defaults().get(PodDisruptionBudget.class, ENVOY).getSpec().getMinAvailable())
        .satisfies(v -> assertThat(v.getIntVal()).isEqualTo(1));
    Rendered bound = Scenarios.BOUND_POOL.render();
    assertThat(bound.objects())
        .noneSatisfy(o -> assertThat(o.getMetadata().getName()).contains("envoy"));
  }

  @Test
  void theDeployEnvoyDirectoryStillHoldsOnlyWhatTheChartCopies() throws Exception {
    try (var files = Files.walk(SHIPPED)) {
      assertThat(files.filter(Files::isRegularFile).map(p -> SHIPPED.relativize(p).toString()))
          .containsExactlyInAnyOrder("envoy.yaml", "sds/gateway-tls.yaml", "sds/picker-ca.yaml");
    }
  }
}
