package dev.pointsman.picker.k8s;

import static dev.pointsman.picker.k8s.K8sObjects.pod;
import static dev.pointsman.picker.k8s.K8sObjects.pool;
import static dev.pointsman.picker.k8s.K8sObjects.running;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.PoolSelector;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.testing.Await;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Pods and InferencePools coming and going, against the mock API server. */
class MembershipTest {
  private static final Map<String, String> H100 = Map.of("app", "vllm", "gpu", "H100-80");
  private static final Map<String, String> A10 = Map.of("app", "vllm", "gpu", "A10G");

  private MockCluster cluster;
  private MockCluster.Picker picker;

  @BeforeEach
  void setUp() {
    cluster = new MockCluster();
    picker = cluster.picker();
  }

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  @Test
  void readyOnlyAfterCachesSyncAndPublish() {
    // given an empty namespace: ready once synced, with no pools
    Await.until("ready", picker.source::ready);
    assertThat(picker.datastore.pools()).isEmpty();
    // a picker bound to a pool that does not exist is not ready
    MockCluster.Picker bound = cluster.picker("llama", "picker-1");
    create(pool("llama", H100, 8000));
    Await.until("bound picker ready once its pool exists", bound.source::ready);
    assertThat(bound.datastore.pools()).containsExactly("llama");
  }

  @Test
  void readyServingPodsAreEndpointsWithTheirLabels() {
    create(pool("llama", H100, 8000));
    Pod a = create(pod("a", H100));
    Await.until("pool published", () -> picker.datastore.pool("llama").isPresent());
    assertThat(addresses("llama")).isEmpty(); // no IP, not ready

    update(running(a, "10.0.0.1", false));
    create(running(pod("b", H100), "10.0.0.2", true));
    create(running(pod("c", A10), "10.0.0.3", true)); // not selected
    Await.until("b serves", () -> addresses("llama").equals(Set.of("10.0.0.2:8000")));

    update(running(a, "10.0.0.1", true));
    Await.until("a serves", () -> addresses("llama").size() == 2);
    Endpoint e = endpoint("llama", "10.0.0.1:8000");
    assertThat(e.label("gpu")).isEqualTo("H100-80");
    assertThat(e.pool()).isEqualTo("llama");
    assertThat(picker.datastore.pool("llama").orElseThrow().engine()).isEqualTo(Engine.VLLM);
  }

  @Test
  void podsLeaveWhenUnreadyTerminatingOrDeleted() {
    create(pool("llama", H100, 8000));
    Pod a = create(running(pod("a", H100), "10.0.0.1", true));
    Pod b = create(running(pod("b", H100), "10.0.0.2", true));
    Pod c = create(running(pod("c", H100), "10.0.0.3", true));
    Await.until("three endpoints", () -> addresses("llama").size() == 3);

    update(running(a, "10.0.0.1", false));
    Await.until("unready a leaves", () -> !addresses("llama").contains("10.0.0.1:8000"));

    Pod terminating = cluster.admin.pods().inNamespace(MockCluster.NS).withName("b").get();
    terminating.getMetadata().setDeletionTimestamp("2030-01-01T00:00:00Z");
    update(terminating);
    Await.until("terminating b leaves", () -> addresses("llama").equals(Set.of("10.0.0.3:8000")));

    cluster.admin.pods().inNamespace(MockCluster.NS).withName(c.getMetadata().getName()).delete();
    Await.until("deleted c leaves", () -> addresses("llama").isEmpty());
    assertThat(b.getMetadata().getName()).isEqualTo("b");
  }

  @Test
  void everyTargetPortIsAnEndpoint() {
    create(pool("ranks", H100, 8000, 8001, 8002));
    create(running(pod("a", H100), "10.0.0.1", true));
    create(running(pod("v6", H100), "fd00::7", true));
    Await.until(
        "3 ports x 2 pods",
        () ->
            addresses("ranks")
                .equals(
                    Set.of(
                        "10.0.0.1:8000",
                        "10.0.0.1:8001",
                        "10.0.0.1:8002",
                        "[fd00::7]:8000",
                        "[fd00::7]:8001",
                        "[fd00::7]:8002")));
  }

  @Test
  void selectorPortAndEngineChangesRecomputeMembership() {
    InferencePool p = create(pool("llama", H100, 8000));
    create(running(pod("h", H100), "10.0.0.1", true));
    create(running(pod("a", A10), "10.0.0.2", true));
    Await.until("H100 pod", () -> addresses("llama").equals(Set.of("10.0.0.1:8000")));

    p = cluster.admin.resource(p).get();
    p.setSpec(
        new dev.pointsman.picker.k8s.api.InferencePoolSpec(
            new PoolSelector(Map.of("app", "vllm")),
            List.of(new dev.pointsman.picker.k8s.api.Port(9000)),
            p.getSpec().endpointPickerRef(),
            null));
    p.getMetadata().setAnnotations(Map.of(InferencePool.ENGINE_ANNOTATION, "sglang"));
    update(p);
    Await.until(
        "both pods on the new port",
        () -> addresses("llama").equals(Set.of("10.0.0.1:9000", "10.0.0.2:9000")));
    assertThat(picker.datastore.pool("llama").orElseThrow().engine()).isEqualTo(Engine.SGLANG);

    cluster.admin.resource(p).delete();
    Await.until("pool removed", () -> picker.datastore.pools().isEmpty());
  }

  @Test
  void aPoolWithAnUnknownEngineIsLeftOutOthersServe() {
    InferencePool bad = pool("bad", H100, 8000);
    bad.getMetadata().setAnnotations(Map.of(InferencePool.ENGINE_ANNOTATION, "tgi"));
    create(bad);
    create(pool("good", A10, 8000));
    Await.until("good published", () -> picker.datastore.pool("good").isPresent());
    assertThat(picker.datastore.pools()).containsExactly("good");
  }

  private Set<String> addresses(String pool) {
    return picker.datastore.pool(pool).map(PoolDefinition::endpoints).orElse(List.of()).stream()
        .map(Endpoint::address)
        .collect(Collectors.toSet());
  }

  private Endpoint endpoint(String pool, String address) {
    return picker.datastore.pool(pool).orElseThrow().endpoints().stream()
        .filter(e -> e.address().equals(address))
        .findFirst()
        .orElseThrow();
  }

  private <T extends io.fabric8.kubernetes.api.model.HasMetadata> T create(T o) {
    return cluster.admin.resource(o).create();
  }

  private <T extends io.fabric8.kubernetes.api.model.HasMetadata> T update(T o) {
    o.getMetadata().setResourceVersion(null);
    return cluster.admin.resource(o).update();
  }
}
