package dev.pointsman.picker.k8s;

import static dev.pointsman.picker.k8s.K8sObjects.pod;
import static dev.pointsman.picker.k8s.K8sObjects.running;
import static dev.pointsman.picker.k8s.PolicyTest.weights;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.testing.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Objects written against the upstream Inference Extension CRDs (v1.0 to v1.6) and newer Pointsman
 * CRDs carry fields this picker's types may not know: the picker reads them anyway, skipping and
 * counting what it does not know, through the product's own {@link KubernetesPoolSource} on the
 * mock API server.
 */
class UpstreamPoolTest {
  /**
   * An InferencePool as upstream v1.6 allows it: appProtocol (v1.4+), no endpointPickerRef
   * (optional since v1.6), status.parents[] with controllerName (v1.1+) and conditions, and a field
   * no release has.
   */
  static final String UPSTREAM_POOL =
      """
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata: {name: llama, namespace: inference}
      spec:
        appProtocol: kubernetes.io/h2c
        selector:
          matchLabels: {app: vllm}
        targetPorts: [{number: 8000}]
        futureField: {nested: [1, 2, 3]}
      status:
        parents:
        - controllerName: example.com/gateway-controller
          parentRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, namespace: inference}
          conditions:
          - type: Accepted
            status: "True"
            reason: Accepted
            message: ok
            lastTransitionTime: "2026-01-01T00:00:00Z"
            observedGeneration: 1
          futureParentField: x
      """;

  /**
   * An upstream v1.0 pool as the API server stores it: endpointPickerRef required, with the group
   * and kind its CRD defaults ("" and Service); no appProtocol, no status.parents[].controllerName.
   */
  static final String V1_0_POOL =
      """
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata: {name: mistral, namespace: inference}
      spec:
        selector:
          matchLabels: {app: mistral}
        targetPorts: [{number: 8000}, {number: 8001}]
        endpointPickerRef:
          group: ""
          kind: Service
          name: picker
          port: {number: 9002}
          failureMode: FailOpen
      status:
        parents:
        - parentRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
          conditions:
          - {type: Accepted, status: "True", reason: Accepted, message: ok,
             lastTransitionTime: "2026-01-01T00:00:00Z", observedGeneration: 1}
      """;

  /**
   * An upstream v1.4/v1.5 pool as the API server stores it: endpointPickerRef still required, and
   * appProtocol written with its CRD default {@code http} although the user never set it.
   */
  static final String V1_4_POOL =
      """
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata: {name: qwen, namespace: inference}
      spec:
        selector:
          matchLabels: {app: qwen}
        targetPorts: [{number: 8000}]
        appProtocol: http
        endpointPickerRef:
          group: ""
          kind: Service
          name: picker
          port: {number: 9002}
          failureMode: FailClose
      status:
        parents:
        - controllerName: example.com/gateway-controller
          parentRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, namespace: inference}
          conditions:
          - {type: ResolvedRefs, status: "True", reason: ResolvedRefs, message: ok,
             lastTransitionTime: "2026-01-01T00:00:00Z", observedGeneration: 3}
      """;

  static final String NEWER_ROUTE =
      """
      apiVersion: pointsman.dev/v1alpha1
      kind: ModelRoute
      metadata: {name: llama, namespace: inference}
      spec:
        model: llama-3.1-8b
        pools: [{name: llama, weight: 1, futureWeightMode: x}]
        futureRouteField: true
      """;

  static final String NEWER_POLICY =
      """
      apiVersion: pointsman.dev/v1alpha1
      kind: PickerPolicy
      metadata: {name: llama, namespace: inference}
      spec:
        targetRef: {group: inference.networking.k8s.io, kind: InferencePool, name: llama}
        scorers: [{type: queue-scorer, weight: 4, futureScorerField: 1}]
        futurePolicyField: {a: b}
      """;

  private MockCluster cluster;

  @BeforeEach
  void setUp() {
    cluster = new MockCluster();
  }

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  @Test
  void aPoolWithUpstreamFieldsIsReadAndThePickerBecomesReady() {
    create(UPSTREAM_POOL);
    cluster.admin.resource(running(pod("a", Map.of("app", "vllm")), "10.0.0.1", true)).create();
    MockCluster.Picker picker = cluster.picker("llama", "picker-0");
    Await.until("ready with the upstream pool", picker.source::ready);
    assertThat(picker.datastore.pools()).containsExactly("llama");
    Await.until("its pod serves", () -> picker.datastore.endpoints("llama") == 1);
    // spec.futureField and status.parents[].futureParentField; every known upstream field is read
    assertThat(picker.unknownFields.count("InferencePool")).isPositive();
    assertThat(picker.unknownFields.counts()).containsOnlyKeys("InferencePool");
  }

  @Test
  void poolsOfEveryUpstreamShapeAreReadSideBySideWithTheirAppProtocol() {
    create(V1_0_POOL);
    create(V1_4_POOL);
    create(UPSTREAM_POOL);
    MockCluster.Picker picker = cluster.picker();
    Await.until("all three pools", () -> picker.datastore.pools().size() == 3);
    assertThat(picker.datastore.pool("qwen").orElseThrow().appProtocol())
        .isEqualTo(AppProtocol.HTTP);
    assertThat(picker.datastore.pool("llama").orElseThrow().appProtocol())
        .isEqualTo(AppProtocol.H2C);
    assertThat(picker.datastore.snapshot("llama").appProtocol()).isEqualTo(AppProtocol.H2C);
    assertThat(picker.datastore.pool("mistral").orElseThrow().appProtocol())
        .isEqualTo(AppProtocol.HTTP);
  }

  @Test
  void aPoolWithAnAppProtocolNoReleaseDefinesIsNotServedAndTheOthersAre() {
    create(V1_0_POOL);
    create(UPSTREAM_POOL.replace("kubernetes.io/h2c", "kubernetes.io/h3"));
    MockCluster.Picker picker = cluster.picker();
    Await.until("ready", picker.source::ready);
    Await.until("mistral published", () -> picker.datastore.pool("mistral").isPresent());
    assertThat(picker.datastore.pools()).containsExactly("mistral");
  }

  @Test
  void aPoolWithUpstreamFieldsArrivingByWatchIsRead() {
    MockCluster.Picker picker = cluster.picker();
    Await.until("ready, empty", picker.source::ready);
    create(UPSTREAM_POOL);
    Await.until("pool seen through the watch", () -> picker.datastore.pool("llama").isPresent());
    assertThat(picker.source.watching()).isTrue();
  }

  @Test
  void newerPointsmanObjectsAreReadAndTheirUnknownFieldsCounted() {
    create(UPSTREAM_POOL);
    create(NEWER_ROUTE);
    create(NEWER_POLICY);
    MockCluster.Picker picker = cluster.picker();
    Await.until("ready", picker.source::ready);
    Await.until(
        "policy in force",
        () -> weights(picker.registry.policy("llama")).equals(Map.of("queue-scorer", 4.0)));
    Await.until("route in force", () -> resolves(picker, "llama-3.1-8b"));
    assertThat(picker.unknownFields.count("ModelRoute")).isGreaterThanOrEqualTo(2);
    assertThat(picker.unknownFields.count("PickerPolicy")).isGreaterThanOrEqualTo(2);
  }

  @Test
  void unknownFieldsAreNamedByKindAndPath() {
    UnknownFields unknown = new UnknownFields();
    InferencePool pool = unknown.serialization().unmarshal(UPSTREAM_POOL, InferencePool.class);
    assertThat(pool.getSpec().targetPorts()).hasSize(1);
    assertThat(pool.getSpec().selector().matchLabels()).containsEntry("app", "vllm");
    assertThat(pool.getStatus().parents().getFirst().conditions()).hasSize(1);
    assertThat(unknown.fields())
        .containsExactlyInAnyOrder(
            "InferencePool spec.futureField", "InferencePool status.parents[].futureParentField");
    assertThat(unknown.count("InferencePool")).isEqualTo(2);
  }

  @Test
  void everyFieldOfTheV10AndV14ShapesIsKnown() {
    for (String yaml : new String[] {V1_0_POOL, V1_4_POOL}) {
      UnknownFields unknown = new UnknownFields();
      InferencePool pool = unknown.serialization().unmarshal(yaml, InferencePool.class);

      assertThat(unknown.fields()).as(pool.getMetadata().getName()).isEmpty();
      var ref = pool.getSpec().endpointPickerRef();
      assertThat(ref.group()).isEmpty();
      assertThat(ref.kind()).isEqualTo("Service");
      assertThat(ref.port().number()).isEqualTo(9002);
      assertThat(pool.getStatus().parents().getFirst().parentRef().name()).isEqualTo("gw");
    }
  }

  private static boolean resolves(MockCluster.Picker picker, String model) {
    try {
      return picker.resolver.get().resolve(model).canonicalModel() != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private void create(String yaml) {
    cluster.admin.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
  }
}
