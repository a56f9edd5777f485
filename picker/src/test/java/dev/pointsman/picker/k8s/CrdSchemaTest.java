package dev.pointsman.picker.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.InferencePoolSpec;
import dev.pointsman.picker.k8s.api.ModelRoute;
import dev.pointsman.picker.k8s.api.ModelRouteSpec;
import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.PickerPolicySpec;
import dev.pointsman.picker.k8s.api.TenantBudget;
import dev.pointsman.picker.k8s.api.TenantBudgetSpec;
import io.fabric8.crdv2.generator.CRDGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keeps the hand-written CRDs in {@code crds/} and the Java types in step: fabric8's CRD generator
 * derives a schema from the Java types, and every property path and type must match the YAML's. A
 * field added on one side only fails here. The examples in {@code deploy/examples/} must parse
 * strictly into the Java types, use only fields the schema has, and be accepted by the picker.
 */
class CrdSchemaTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper STRICT =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  @TempDir Path generated;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "inferencepools.inference.networking.k8s.io",
        "modelroutes.pointsman.dev",
        "pickerpolicies.pointsman.dev",
        "tenantbudgets.pointsman.dev"
      })
  void yamlSchemaMatchesTheJavaTypes(String crd) throws IOException {
    new CRDGenerator()
        .customResourceClasses(
            InferencePool.class, ModelRoute.class, PickerPolicy.class, TenantBudget.class)
        .forCRDVersions("v1")
        .inOutputDir(generated.toFile())
        .generate();
    Map<String, String> fromJava = paths(schema(generated.resolve(crd + "-v1.yml")));
    Map<String, String> fromYaml =
        paths(schema(MockCluster.repoRoot().resolve("crds/" + crd + ".yaml")));
    assertThat(fromJava).hasSizeGreaterThan(8).containsKey("spec");
    assertThat(fromYaml).as("property paths and types of crds/%s.yaml", crd).isEqualTo(fromJava);
  }

  /**
   * The constraints of the upstream v1.6.0 InferencePool schema that earlier vendored copies lacked
   * (issue 23): a copy that loses one of them no longer equals upstream.
   */
  @Test
  void theInferencePoolSchemaCarriesUpstreamV160sConstraints() throws IOException {
    JsonNode schema =
        schema(
            MockCluster.repoRoot().resolve("crds/inferencepools.inference.networking.k8s.io.yaml"));
    JsonNode spec = schema.path("properties").path("spec");
    JsonNode parent =
        schema.at("/properties/status/properties/parents/items/properties/controllerName");

    assertThat(spec.path("required"))
        .extracting(JsonNode::asText)
        .containsExactlyInAnyOrder("selector", "targetPorts");
    assertThat(spec.at("/properties/appProtocol/default").asText()).isEqualTo("http");
    assertThat(spec.at("/properties/appProtocol/enum"))
        .extracting(JsonNode::asText)
        .containsExactly("http", "kubernetes.io/h2c");
    assertThat(spec.at("/properties/selector/properties/matchLabels/minProperties").asInt())
        .isEqualTo(1);
    assertThat(spec.at("/properties/selector/properties/matchLabels/maxProperties").asInt())
        .isEqualTo(64);
    assertThat(spec.at("/properties/targetPorts/maxItems").asInt()).isEqualTo(8);
    assertThat(spec.at("/properties/targetPorts/x-kubernetes-validations/0/rule").asText())
        .isEqualTo("self.all(p1, self.exists_one(p2, p1.number==p2.number))");
    assertThat(spec.at("/properties/endpointPickerRef/x-kubernetes-validations/0/rule").asText())
        .isEqualTo("self.kind != 'Service' || has(self.port)");
    assertThat(parent.path("minLength").asInt()).isEqualTo(1);
    assertThat(parent.path("maxLength").asInt()).isEqualTo(253);
    assertThat("example.net/gateway-controller").matches(parent.path("pattern").asText());
    assertThat("example.net").doesNotMatch(parent.path("pattern").asText());
  }

  @Test
  void crdsDeclareStatusSubresourceAndPrinterColumns() throws IOException {
    for (String crd :
        List.of(
            "modelroutes.pointsman.dev",
            "pickerpolicies.pointsman.dev",
            "tenantbudgets.pointsman.dev")) {
      JsonNode version = version(MockCluster.repoRoot().resolve("crds/" + crd + ".yaml"));
      assertThat(version.path("subresources").has("status")).as(crd).isTrue();
      assertThat(version.path("additionalPrinterColumns").size()).as(crd).isGreaterThan(3);
    }
  }

  @Test
  void examplesParseStrictlyUseSchemaFieldsAndAreAccepted() throws IOException {
    Map<String, Map<String, String>> schemas = new TreeMap<>();
    for (Path crd : MockCluster.crds()) {
      JsonNode doc = YAML.readTree(crd.toFile());
      schemas.put(doc.path("spec").path("names").path("kind").asText(), paths(schema(crd)));
    }
    List<InferencePool> pools = new ArrayList<>();
    List<ModelRoute> routes = new ArrayList<>();
    List<TenantBudget> budgets = new ArrayList<>();
    int seen = 0;
    try (var files = Files.list(MockCluster.repoRoot().resolve("deploy/examples"))) {
      for (Path file : files.sorted().toList()) {
        for (JsonNode doc :
            YAML.readerFor(JsonNode.class).readValues(file.toFile()).readAll().stream()
                .map(JsonNode.class::cast)
                .toList()) {
          String kind = doc.path("kind").asText();
          Map<String, String> schema = schemas.get(kind);
          assertThat(schema).as("CRD for %s in %s", kind, file).isNotNull();
          Map<String, String> used = new TreeMap<>();
          collect(doc.path("spec"), "spec", used);
          assertThat(schema.keySet())
              .as("%s fields used in %s", kind, file)
              .containsAll(used.keySet());
          JsonNode spec = doc.path("spec");
          switch (kind) {
            case "InferencePool" -> {
              InferencePool p = YAML.convertValue(doc, InferencePool.class);
              STRICT.treeToValue(spec, InferencePoolSpec.class);
              pools.add(p);
            }
            case "ModelRoute" -> {
              STRICT.treeToValue(spec, ModelRouteSpec.class);
              routes.add(YAML.convertValue(doc, ModelRoute.class));
            }
            case "PickerPolicy" ->
                PolicyCompiler.compile(STRICT.treeToValue(spec, PickerPolicySpec.class));
            case "TenantBudget" -> {
              STRICT.treeToValue(spec, TenantBudgetSpec.class);
              budgets.add(YAML.convertValue(doc, TenantBudget.class));
            }
            default -> throw new AssertionError("unexpected kind " + kind + " in " + file);
          }
          seen++;
        }
      }
    }
    assertThat(seen).isGreaterThanOrEqualTo(6);
    ModelCatalog.Outcome catalog = ModelCatalog.build(routes, pools);
    assertThat(catalog.verdicts().values()).allMatch(Verdict::accepted);
    BudgetCatalog.Outcome tenants = BudgetCatalog.build(budgets);
    assertThat(tenants.budgets()).hasSize(2);
    assertThat(tenants.verdicts().values()).allMatch(Verdict::accepted);
  }

  private static JsonNode version(Path crd) throws IOException {
    return YAML.readTree(crd.toFile()).path("spec").path("versions").get(0);
  }

  private static JsonNode schema(Path crd) throws IOException {
    return version(crd).path("schema").path("openAPIV3Schema");
  }

  /**
   * Every property path under spec and status, with its type: {@code spec.pools[].weight=integer}.
   */
  static Map<String, String> paths(JsonNode schema) {
    Map<String, String> out = new TreeMap<>();
    walk(schema.path("properties").path("spec"), "spec", out);
    walk(schema.path("properties").path("status"), "status", out);
    return out;
  }

  private static void walk(JsonNode node, String path, Map<String, String> out) {
    if (node.isMissingNode()) {
      return;
    }
    out.put(path, node.path("type").asText());
    Iterator<Map.Entry<String, JsonNode>> props = node.path("properties").fields();
    while (props.hasNext()) {
      Map.Entry<String, JsonNode> e = props.next();
      walk(e.getValue(), path + "." + e.getKey(), out);
    }
    walk(node.path("items"), path + "[]", out);
    if (node.path("additionalProperties").isObject()) {
      walk(node.path("additionalProperties"), path + "{}", out);
    }
  }

  /** The paths an example document uses (map keys under {@code {}} are not fields). */
  private static void collect(JsonNode node, String path, Map<String, String> out) {
    out.put(path, node.getNodeType().name());
    if (node.isArray()) {
      node.forEach(item -> collect(item, path + "[]", out));
    } else if (node.isObject()) {
      boolean isMap = path.endsWith("matchLabels") || path.endsWith("parameters");
      node.fields()
          .forEachRemaining(
              e -> collect(e.getValue(), isMap ? path + "{}" : path + "." + e.getKey(), out));
    }
  }
}
