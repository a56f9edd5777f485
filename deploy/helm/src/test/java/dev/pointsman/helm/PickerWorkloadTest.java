package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.pointsman.helm.Scenarios.Scenario;
import dev.pointsman.picker.config.PickerConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The picker Deployment, its Services, PDB, HPA, ServiceAccount and config. */
class PickerWorkloadTest {
  private static final String PICKER = "pointsman-picker";
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static Stream<Scenario> scenarios() {
    return Scenarios.all().stream();
  }

  private static Deployment deployment(Rendered r) {
    return r.get(Deployment.class, PICKER);
  }

  private static Container container(Rendered r) {
    return deployment(r).getSpec().getTemplate().getSpec().getContainers().getFirst();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void runsHardenedAsNonRootWithAReadOnlyRootAndAWritableTmp(Scenario scenario) {
    Rendered r = scenario.render();
    PodSpec pod = deployment(r).getSpec().getTemplate().getSpec();

    Security.assertRestricted(pod);
    assertThat(pod.getContainers()).hasSize(1);
    assertThat(pod.getContainers().getFirst().getVolumeMounts())
        .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    Volume tmp = pod.getVolumes().stream().filter(v -> v.getName().equals("tmp")).findFirst().get();
    assertThat(tmp.getEmptyDir()).isNotNull();
    assertThat(pod.getServiceAccountName()).isEqualTo(PICKER);
    // the tokenizer's native library must unpack under the writable /tmp, not the read-only home
    assertThat(pod.getContainers().getFirst().getEnv())
        .anySatisfy(
            e -> {
              assertThat(e.getName()).isEqualTo("DJL_CACHE_DIR");
              assertThat(e.getValue()).startsWith("/tmp/");
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void requestsCpuAndMemoryAndCapsMemory(Scenario scenario) {
    var resources = container(scenario.render()).getResources();

    assertThat(resources.getRequests()).containsKeys("cpu", "memory");
    assertThat(resources.getLimits()).containsKey("memory");
    assertThat(resources.getLimits()).doesNotContainKey("cpu");
    assertThat(Quantity.getAmountInBytes(resources.getLimits().get("memory")))
        .isGreaterThanOrEqualTo(Quantity.getAmountInBytes(resources.getRequests().get("memory")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void thePickerAcceptsTheRenderedConfigFile(Scenario scenario) {
    Rendered r = scenario.render();
    String yaml = r.get(ConfigMap.class, PICKER).getData().get("picker.yaml");

    // The picker's own parser and validation, as `picker --config` runs them at start.
    PickerConfig config = PickerConfig.parse(yaml);

    assertThat(config.grpc().tls()).isEqualTo("files");
    assertThat(config.grpc().port())
        .isEqualTo(container(r).getPorts().getFirst().getContainerPort());
    assertThat(config.admin().port()).isEqualTo(container(r).getPorts().get(1).getContainerPort());
    // A pod is reached on its IP: the chart binds every interface, whatever the picker's default.
    assertThat(config.grpc().host()).isEqualTo("0.0.0.0");
    assertThat(config.admin().host()).isEqualTo("0.0.0.0");
  }

  @Test
  void kubernetesModeRefusesPoolsInTheFile() {
    assertThatThrownBy(() -> Chart.render("picker: {config: {pools: [{name: a, endpoints: []}]}}"))
        .hasMessageContaining("only read with picker.mode=config");
  }

  @Test
  void defaultsRunTwoReplicasInKubernetesModeOverTlsFiles() throws Exception {
    Rendered r = Chart.defaults();
    Container c = container(r);

    assertThat(deployment(r).getSpec().getReplicas()).isEqualTo(2);
    assertThat(c.getImage()).isEqualTo("ghcr.io/pointsman/pointsman:0.1.0");
    assertThat(c.getArgs())
        .containsExactly(
            "picker",
            "--kubernetes",
            "--config",
            "/etc/pointsman/picker.yaml",
            "--replication-bind",
            "$(POD_IP)");
    assertThat(c.getEnv()).anySatisfy(e -> assertThat(e.getName()).isEqualTo("POD_NAME"));
    assertThat(c.getPorts())
        .extracting(p -> p.getName() + ":" + p.getContainerPort())
        .containsExactly("grpc:9002", "http-admin:9090", "replication:7800");
    assertThat(deployment(r).getSpec().getTemplate().getSpec().getAutomountServiceAccountToken())
        .isTrue();

    JsonNode config =
        YAML.readTree(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml")).get("grpc");
    assertThat(config.get("tls").asText()).isEqualTo("files");
    assertThat(config.get("certChain").asText()).isEqualTo("/etc/pointsman/tls/tls.crt");
    assertThat(config.get("privateKey").asText()).isEqualTo("/etc/pointsman/tls/tls.key");
    assertThat(c.getVolumeMounts())
        .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/etc/pointsman/tls"));
  }

  @Test
  void probesAskTheHealthStateOverTheAdminPortByDefault() {
    Container c = container(Chart.defaults());

    assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    for (Probe p : new Probe[] {c.getLivenessProbe(), c.getReadinessProbe()}) {
      assertThat(p.getHttpGet().getPort().getStrVal()).isEqualTo("http-admin");
      assertThat(p.getGrpc()).isNull();
    }
  }

  @Test
  void grpcProbesUseTheHealthServicesOnAPlaintextPort() {
    Rendered r = Scenarios.GRPC_PROBES.render();
    Container c = container(r);

    assertThat(c.getLivenessProbe().getGrpc().getPort()).isEqualTo(9003);
    assertThat(c.getLivenessProbe().getGrpc().getService()).isEqualTo("liveness");
    assertThat(c.getStartupProbe().getGrpc().getPort()).isEqualTo(9003);
    assertThat(c.getStartupProbe().getGrpc().getService()).isEqualTo("liveness");
    assertThat(c.getReadinessProbe().getGrpc().getPort()).isEqualTo(9003);
    assertThat(c.getReadinessProbe().getGrpc().getService()).isEqualTo("readiness");
    assertThat(c.getReadinessProbe().getHttpGet()).isNull();
    assertThat(c.getPorts())
        .extracting(p -> p.getName() + ":" + p.getContainerPort())
        .containsExactly("grpc:9002", "http-admin:9090", "replication:7800", "grpc-health:9003");
    // The picker opens the plaintext health listener the probes ask, and keeps ext_proc on TLS.
    PickerConfig config =
        PickerConfig.parse(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml"));
    assertThat(config.grpc().healthPort()).isEqualTo(9003);
    assertThat(config.grpc().tls()).isEqualTo("files");
  }

  @Test
  void grpcProbesDefaultToPort9003() {
    Container c = container(Chart.render("picker: {probes: {type: grpc}}"));

    assertThat(c.getReadinessProbe().getGrpc().getPort()).isEqualTo(9003);
  }

  @Test
  void httpProbesOpenNoHealthPort() throws Exception {
    Rendered r = Chart.defaults();
    JsonNode grpc =
        YAML.readTree(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml")).get("grpc");

    assertThat(grpc.has("healthPort")).isFalse();
    assertThat(container(r).getPorts())
        .extracting(p -> p.getName())
        .containsExactly("grpc", "http-admin", "replication");
  }

  @Test
  void grpcProbesOnTheTlsPortAreRefusedWithTheReason() {
    // The kubelet's gRPC probe cannot speak TLS; the ext_proc port must (Envoy verifies it).
    assertThatThrownBy(() -> Chart.render("picker: {probes: {type: grpc, grpcPort: 9002}}"))
        .hasMessageContaining("plaintext")
        .hasMessageContaining("9002");
  }

  @Test
  void grpcProbesOnTheAdminPortAreRefused() {
    assertThatThrownBy(() -> Chart.render("picker: {probes: {type: grpc, grpcPort: 9090}}"))
        .hasMessageContaining("picker.adminPort");
  }

  private static long terminationGrace(Rendered r) {
    return deployment(r).getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
  }

  private static PickerConfig pickerConfig(Rendered r) {
    return PickerConfig.parse(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml"));
  }

  @Test
  void theGracePeriodCoversThePreStopPauseTheNotReadyGraceTheDrainAndTheHookMargin() {
    Rendered r = Chart.defaults();
    long preStop = container(r).getLifecycle().getPreStop().getSleep().getSeconds();

    assertThat(pickerConfig(r).shutdown().graceSeconds()).isEqualTo(12);
    assertThat(pickerConfig(r).grpc().drainSeconds()).isEqualTo(30);
    assertThat(preStop).isEqualTo(5L);
    assertThat(terminationGrace(r)).isEqualTo(5 + 12 + 30 + 10);
  }

  @Test
  void theGracePeriodFollowsTheShutdownValues() {
    Rendered r = Chart.render("picker: {shutdownGraceSeconds: 20, drainSeconds: 60}");

    assertThat(pickerConfig(r).shutdown().graceSeconds()).isEqualTo(20);
    assertThat(pickerConfig(r).grpc().drainSeconds()).isEqualTo(60);
    assertThat(terminationGrace(r)).isEqualTo(5 + 20 + 60 + 10);
  }

  @Test
  void theGracePeriodFollowsPeriodsSetInThePickerConfig() {
    // picker.config wins over the chart's keys in the file; the pod's grace period follows it.
    Rendered r =
        Chart.render("picker: {config: {shutdown: {graceSeconds: 40}, grpc: {drainSeconds: 100}}}");

    assertThat(pickerConfig(r).shutdown().graceSeconds()).isEqualTo(40);
    assertThat(terminationGrace(r)).isEqualTo(5 + 40 + 100 + 10);
  }

  @Test
  void anExplicitGracePeriodLongEnoughIsKept() {
    assertThat(terminationGrace(Chart.render("picker: {terminationGracePeriodSeconds: 120}")))
        .isEqualTo(120);
  }

  @Test
  void anExplicitGracePeriodTooShortIsRefusedWithTheSum() {
    assertThatThrownBy(() -> Chart.render("picker: {terminationGracePeriodSeconds: 50}"))
        .hasMessageContaining("picker.terminationGracePeriodSeconds: 50 is too short")
        .hasMessageContaining("needs 57");
  }

  @Test
  void theDataPlaneDefaultsToOriginalDstForTheChartsEnvoy() {
    assertThat(pickerConfig(Chart.defaults()).protocol().dataPlane()).isEqualTo("original-dst");
  }

  @Test
  void overrideHostIsPassedToThePicker() {
    Rendered r = Chart.render("picker: {dataPlane: override-host}\nenvoy: {enabled: false}");

    assertThat(pickerConfig(r).protocol().dataPlane()).isEqualTo("override-host");
  }

  @Test
  void anUnknownDataPlaneIsRefusedByTheSchema() {
    assertThatThrownBy(() -> Chart.render("picker: {dataPlane: round-robin}"))
        .hasMessageContaining("dataPlane");
  }

  @Test
  void theHeadlessServiceListsEveryPickerPodForLeastRequest() {
    Rendered r = Chart.defaults();
    Service headless = r.get(Service.class, "pointsman-picker-headless");
    Service normal = r.get(Service.class, PICKER);
    var podLabels = deployment(r).getSpec().getTemplate().getMetadata().getLabels();

    assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(headless.getSpec().getPublishNotReadyAddresses()).isFalse();
    assertThat(headless.getSpec().getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getPort()).isEqualTo(9002));
    assertThat(podLabels).containsAllEntriesOf(headless.getSpec().getSelector());
    assertThat(normal.getSpec().getType()).isEqualTo("ClusterIP");
    assertThat(normal.getSpec().getPorts())
        .extracting(p -> p.getName() + ":" + p.getPort() + "->" + p.getTargetPort().getStrVal())
        .containsExactly("grpc:9002->grpc", "http-metrics:9090->http-admin");
    assertThat(podLabels).containsAllEntriesOf(normal.getSpec().getSelector());
  }

  @Test
  void aDisruptionBudgetKeepsAPickerUpAndMatchesThePods() {
    Rendered r = Chart.defaults();
    PodDisruptionBudget pdb = r.get(PodDisruptionBudget.class, PICKER);

    assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
    assertThat(deployment(r).getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
    assertThat(r.all(HorizontalPodAutoscaler.class)).isEmpty();
  }

  @Test
  void autoscalingOwnsTheReplicaCountWhenOn() {
    Rendered r = Scenarios.EVERYTHING_ON.render();
    HorizontalPodAutoscaler hpa = r.get(HorizontalPodAutoscaler.class, PICKER);

    assertThat(deployment(r).getSpec().getReplicas()).isNull();
    assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo(PICKER);
    assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(3);
    assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(9);
    assertThat(hpa.getSpec().getMetrics().getFirst().getResource().getTarget())
        .satisfies(t -> assertThat(t.getAverageUtilization()).isEqualTo(50));
  }

  @Test
  void customImageAndIrsaAnnotation() {
    Rendered r = Scenarios.EVERYTHING_ON.render();

    assertThat(container(r).getImage())
        .isEqualTo("123456789012.dkr.ecr.us-east-1.amazonaws.com/pointsman:1.2.3-rc.1");
    assertThat(r.get(ServiceAccount.class, PICKER).getMetadata().getAnnotations())
        .containsEntry(
            "eks.amazonaws.com/role-arn", "arn:aws:iam::123456789012:role/pointsman-picker");
  }

  @Test
  void aDigestPinsTheImage() {
    String digest = "sha256:" + "ab".repeat(32);
    Container c = container(Chart.render("image: {digest: \"" + digest + "\"}"));

    assertThat(c.getImage()).isEqualTo("ghcr.io/pointsman/pointsman@" + digest);
  }

  @Test
  void boundPoolModePassesThePool() {
    Rendered r = Scenarios.BOUND_POOL.render();

    assertThat(container(r).getArgs())
        .containsExactly(
            "picker",
            "--kubernetes",
            "--config",
            "/etc/pointsman/picker.yaml",
            "--pool",
            "llama-70b",
            "--replication-bind",
            "$(POD_IP)");
    assertThat(deployment(r).getSpec().getReplicas()).isEqualTo(3);
  }

  @Test
  void configModeReadsPoolsFromTheMountedFileAndNeedsNoApiAccess() throws Exception {
    Rendered r = Scenarios.LOCAL_CONFIG.render();

    assertThat(container(r).getArgs())
        .containsExactly(
            "picker", "--config", "/etc/pointsman/picker.yaml", "--replication-bind", "$(POD_IP)");
    assertThat(deployment(r).getSpec().getTemplate().getSpec().getAutomountServiceAccountToken())
        .isFalse();
    JsonNode config = YAML.readTree(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml"));
    assertThat(config.at("/pools/0/name").asText()).isEqualTo("mixed");
    assertThat(config.at("/defaultModel").asText()).isEqualTo("llama");
    assertThat(config.at("/grpc/tls").asText()).isEqualTo("files");
  }

  @Test
  void configModeWithoutPoolsIsRefused() {
    assertThatThrownBy(() -> Chart.render("picker: {mode: config}"))
        .hasMessageContaining("picker.config.pools");
  }

  @Test
  void theConfigChecksumRollsThePodsWhenTheConfigChanges() {
    String before =
        deployment(Chart.defaults())
            .getSpec()
            .getTemplate()
            .getMetadata()
            .getAnnotations()
            .get("checksum/config");
    String after =
        deployment(Chart.render("picker: {config: {decisionLog: 512}}"))
            .getSpec()
            .getTemplate()
            .getMetadata()
            .getAnnotations()
            .get("checksum/config");

    assertThat(before).hasSize(64).isNotEqualTo(after);
  }
}
