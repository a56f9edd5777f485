package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.pointsman.helm.Scenarios.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * values.schema.json as the EKS add-on's configuration schema: EKS validates the user's
 * `--configuration-values` as given, before any merge with values.yaml (Helm validates merged
 * values). So every partial configuration must pass, and wrong types and values must still fail.
 * Validated by a JSON Schema validator (networknt, draft 7), not by Helm.
 */
class AddonConfigurationSchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Pattern CONFIGURATION_VALUES =
      Pattern.compile("--configuration-values '([^']*)'");
  private static final Schema SCHEMA =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
          .getSchema(Chart.read(Chart.DIR.resolve("values.schema.json")), InputFormat.JSON);

  private static List<Error> validate(JsonNode config) {
    return SCHEMA.validate(config);
  }

  private static JsonNode yaml(String text) {
    try {
      JsonNode node = YAML.readTree(text);
      return node == null || node.isMissingNode() ? JSON.createObjectNode() : node;
    } catch (Exception e) {
      throw new AssertionError("not YAML: " + text, e);
    }
  }

  /** Every `--configuration-values '{…}'` example in the docs. */
  static List<String> documentedExamples() {
    List<String> out = new ArrayList<>();
    for (String doc : List.of("docs/install.md", "README.md")) {
      var file = Chart.REPO.resolve(doc);
      if (!java.nio.file.Files.exists(file)) {
        continue;
      }
      Matcher m = CONFIGURATION_VALUES.matcher(Chart.read(file));
      while (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  static Stream<Scenario> scenarios() {
    return Scenarios.all().stream();
  }

  @Test
  void theDocsHaveExamples() {
    assertThat(documentedExamples()).isNotEmpty();
  }

  @ParameterizedTest
  @MethodSource("documentedExamples")
  void everyDocumentedExampleIsAcceptedUnmerged(String example) throws Exception {
    assertThat(validate(JSON.readTree(example))).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void everyValueSetTheTestsUseIsAcceptedUnmerged(Scenario scenario) {
    assertThat(validate(yaml(scenario.values()))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "{\"picker\":{}}",
        "{\"picker\":{\"resources\":{\"requests\":{\"cpu\":\"2\"}}}}",
        "{\"picker\":{\"tls\":{\"certManager\":{\"issuerRef\":{\"name\":\"corp\"}}}}}",
        "{\"envoy\":{\"service\":{\"port\":8443}}}",
        "{\"image\":{\"digest\":\"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}}",
        "{\"metrics\":{\"serviceMonitor\":{\"interval\":\"30s\"}}}",
        "{\"networkPolicy\":{\"prometheus\":{\"podSelector\":{}}}}"
      })
  void partialConfigurationsAreAccepted(String config) throws Exception {
    assertThat(validate(JSON.readTree(config))).isEmpty();
  }

  @Test
  void theChartDefaultsAreAccepted() {
    assertThat(validate(yaml(Chart.read(Chart.DIR.resolve("values.yaml"))))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"picker\":{\"replicas\":\"two\"}}",
        "{\"picker\":{\"replicas\":1}}",
        "{\"picker\":{\"mode\":\"both\"}}",
        "{\"picker\":{\"grpcPort\":70000}}",
        "{\"picker\":{\"tls\":{\"mode\":\"selfsigned\"}}}",
        "{\"envoy\":{\"enabled\":\"yes\"}}",
        "{\"envoy\":{\"preStopSleepSeconds\":0}}",
        "{\"envoy\":{\"tls\":{\"dnsNames\":\"llm.example.com\"}}}",
        "{\"image\":{\"digest\":\"latest\"}}",
        "{\"networkPolicy\":{\"allowedCidrs\":[\"everywhere\"]}}",
        "{\"picker\":{\"resources\":{\"requests\":{\"cpu\":\"lots\"}}}}",
        "{\"unknownKey\":1}",
        "{\"picker\":{\"replica\":2}}",
        "[]"
      })
  void wrongTypesAndValuesAreRejected(String config) throws Exception {
    assertThat(validate(JSON.readTree(config))).isNotEmpty();
  }

  @Test
  void aPreStopSleepLongerThanTheGracePeriodIsRefused() {
    assertThatThrownBy(
            () ->
                Chart.template(
                    Chart.RELEASE,
                    Chart.NAMESPACE,
                    "envoy: {preStopSleepSeconds: 120, terminationGracePeriodSeconds: 60}"))
        .hasMessageContaining("envoy.preStopSleepSeconds=120 exceeds");
    assertThatThrownBy(
            () -> Chart.template(Chart.RELEASE, Chart.NAMESPACE, "envoy: {preStopSleepSeconds: 0}"))
        .hasMessageContaining("preStopSleepSeconds");
  }
}
