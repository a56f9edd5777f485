package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Chart metadata, lint, CRDs, schema and the optional monitoring objects. */
class ChartPackagingTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void lintsCleanInStrictMode() {
    LintResult result = Chart.lint();

    assertThat(result.isFailed()).as("%s", result.getMessages()).isFalse();
    assertThat(result.getMessages())
        .allSatisfy(m -> assertThat(m).doesNotContain("[ERROR]").doesNotContain("[WARNING]"));
  }

  @Test
  void chartYamlIsV2WithAppAndKubeVersions() throws Exception {
    JsonNode chart = YAML.readTree(Chart.DIR.resolve("Chart.yaml").toFile());

    assertThat(chart.get("apiVersion").asText()).isEqualTo("v2");
    assertThat(chart.get("name").asText()).isEqualTo("pointsman");
    assertThat(chart.get("type").asText()).isEqualTo("application");
    assertThat(chart.get("appVersion").asText()).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(chart.get("kubeVersion").asText()).startsWith(">=1.30");
    // The image tag defaults to appVersion: keep it the Maven version without -SNAPSHOT.
    String pom = Chart.read(Chart.REPO.resolve("pom.xml"));
    assertThat(pom)
        .contains("<version>" + chart.get("appVersion").asText() + "-SNAPSHOT</version>");
  }

  @Test
  void theChartsCrdsAreTheTopLevelCrds() throws Exception {
    Path top = Chart.REPO.resolve("crds");
    Path ours = Chart.DIR.resolve("crds");
    List<String> topFiles;
    try (Stream<Path> s = Files.list(top)) {
      topFiles =
          s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList();
    }
    List<String> ourFiles;
    try (Stream<Path> s = Files.list(ours)) {
      ourFiles = s.map(p -> p.getFileName().toString()).sorted().toList();
    }

    assertThat(ourFiles).as("deploy/helm/pointsman/crds must mirror crds/").isEqualTo(topFiles);
    for (String file : topFiles) {
      assertThat(Chart.read(ours.resolve(file)))
          .as("deploy/helm/pointsman/crds/%s differs from crds/%s: copy it", file, file)
          .isEqualTo(Chart.read(top.resolve(file)));
    }
  }

  @Test
  void helmInstallsInferencePoolV1AndPointsmansCrds() throws Exception {
    var serialization = new KubernetesSerialization();
    String shown = Chart.crds();
    List<String> names;
    try (Stream<Path> files = Files.list(Chart.DIR.resolve("crds"))) {
      names =
          files
              .sorted()
              .map(Chart::read)
              .peek(text -> assertThat(shown).as("helm show crds").contains(text.strip()))
              .map(text -> (HasMetadata) serialization.unmarshal(text))
              .map(CustomResourceDefinition.class::cast)
              .peek(
                  crd ->
                      assertThat(crd.getSpec().getVersions())
                          .anySatisfy(v -> assertThat(v.getStorage()).isTrue()))
              .map(crd -> crd.getMetadata().getName())
              .toList();
    }

    assertThat(names)
        .containsExactly(
            "inferencepools.inference.networking.k8s.io",
            "modelroutes.pointsman.dev",
            "pickerpolicies.pointsman.dev",
            "tenantbudgets.pointsman.dev");
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        Arguments.of("one picker is a single point of failure", "picker: {replicas: 1}"),
        Arguments.of("unknown key", "picker: {replica: 3}"),
        Arguments.of("unknown mode", "picker: {mode: local}"),
        Arguments.of("port out of range", "picker: {grpcPort: 70000}"),
        Arguments.of("tls mode", "envoy: {tls: {mode: letsencrypt}}"),
        Arguments.of("service type", "envoy: {service: {type: ExternalName}}"),
        Arguments.of("failure mode is a boolean", "envoy: {failureModeAllow: \"yes\"}"),
        Arguments.of("digest format", "image: {digest: latest}"),
        Arguments.of("cidr", "networkPolicy: {allowedCidrs: [everyone]}"),
        Arguments.of("log level", "envoy: {logLevel: verbose}"),
        Arguments.of("hpa target", "picker: {autoscaling: {targetCPUUtilizationPercentage: 0}}"),
        Arguments.of("negative drain", "picker: {drainSeconds: -1}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidValues")
  void theSchemaRejectsBadValues(String why, String values) {
    assertThatThrownBy(() -> Chart.render(values))
        .as(why)
        .hasMessageContaining("values don't meet the specifications of the schema");
  }

  @Test
  void theSchemaIsStrictEverywhere() throws Exception {
    JsonNode schema = new ObjectMapper().readTree(Chart.DIR.resolve("values.schema.json").toFile());
    assertStrict("", schema);
  }

  private static void assertStrict(String path, JsonNode node) {
    if (node.has("properties")) {
      JsonNode additional = node.get("additionalProperties");
      assertThat(additional != null && additional.isBoolean() && !additional.asBoolean())
          .as("%s: objects with listed properties must reject unknown keys", path)
          .isTrue();
      node.get("properties")
          .properties()
          .forEach(e -> assertStrict(path + "." + e.getKey(), e.getValue()));
    }
  }

  @Test
  void notesPrintTheUrlAndTheFirstCurl() {
    String notes = Chart.notes("envoy: {tls: {dnsNames: [llm.internal.example.com]}}");

    assertThat(notes)
        .contains("https://llm.internal.example.com/v1")
        .contains("get svc pointsman-envoy")
        .contains(
            "curl --cacert pointsman-ca.crt https://llm.internal.example.com/v1/chat/completions")
        .contains("secret pointsman-gateway-tls");
  }

  @Test
  void withoutADnsNameTheNotesReachTheServiceNameThroughTheLoadBalancer() {
    assertThat(Chart.notes(""))
        .contains(
            "--connect-to pointsman-envoy.pointsman.svc:443:$LB:443"
                + " https://pointsman-envoy.pointsman.svc/v1/chat/completions");
  }

  @Test
  void theServiceMonitorScrapesThePickersMetricsPort() {
    Rendered r = Scenarios.EVERYTHING_ON.render();
    var monitor =
        (GenericKubernetesResource)
            r.ofKind("monitoring.coreos.com/v1", "ServiceMonitor").stream()
                .findFirst()
                .orElseThrow();

    assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
    List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
    assertThat(endpoints)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e).containsEntry("port", "http-metrics").containsEntry("path", "/metrics");
              assertThat(e).containsEntry("interval", "30s");
            });
    assertThat(Chart.defaults().ofKind("monitoring.coreos.com/v1", "ServiceMonitor")).isEmpty();
  }

  @Test
  void aPodMonitorScrapesEnvoysStatsOnTheHealthPort() {
    Rendered r = Scenarios.EVERYTHING_ON.render();
    var monitor =
        (GenericKubernetesResource)
            r.ofKind("monitoring.coreos.com/v1", "PodMonitor").stream().findFirst().orElseThrow();

    assertThat(monitor.getMetadata().getName()).isEqualTo("pointsman-envoy");
    assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
    Map<String, Object> labels = monitor.get("spec", "selector", "matchLabels");
    assertThat(labels)
        .containsEntry("app.kubernetes.io/component", "gateway")
        .containsEntry("app.kubernetes.io/instance", "pointsman");
    List<Map<String, Object>> endpoints = monitor.get("spec", "podMetricsEndpoints");
    assertThat(endpoints)
        .singleElement()
        .satisfies(
            e ->
                assertThat(e)
                    .containsEntry("port", "http-health")
                    .containsEntry("path", "/stats/prometheus"));
    assertThat(Chart.defaults().ofKind("monitoring.coreos.com/v1", "PodMonitor")).isEmpty();
  }
}
