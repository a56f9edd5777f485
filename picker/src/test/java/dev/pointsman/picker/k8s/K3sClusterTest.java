package dev.pointsman.picker.k8s;

import static dev.pointsman.picker.k8s.K8sObjects.pod;
import static dev.pointsman.picker.k8s.K8sObjects.policy;
import static dev.pointsman.picker.k8s.K8sObjects.pool;
import static dev.pointsman.picker.k8s.PolicyTest.scorer;
import static dev.pointsman.picker.k8s.PolicyTest.spec;
import static dev.pointsman.picker.k8s.PolicyTest.weights;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.datastore.DatastoreConfig;
import dev.pointsman.picker.k8s.api.AcceptanceStatus;
import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.ScorerSpec;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.testing.Await;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Against a real API server (k3s in a container): the CRDs of {@code crds/} install and their
 * schema and CEL rules reject bad objects; the picker's source, running as the ServiceAccount of
 * {@code deploy/rbac/picker-rbac.yaml} (by impersonation), turns pools and pods into endpoints,
 * applies policies, and writes status. Pods never run (no registry here): they are bound to a Node
 * object without a kubelet, and their status is written as a kubelet would.
 *
 * <p>Runs wherever Docker is available; elsewhere it is skipped with a message.
 */
class K3sClusterTest {
  private static final String IMAGE = "rancher/k3s:v1.31.4-k3s1";
  private static final String NS = MockCluster.NS;
  private static final String SA = "system:serviceaccount:" + NS + ":pointsman-picker";
  private static K3sContainer k3s;
  private static KubernetesClient admin;

  @BeforeAll
  static void startK3s() {
    if (!dockerAvailable()) {
      return;
    }
    k3s = new K3sContainer(DockerImageName.parse(IMAGE));
    k3s.start();
    admin =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(k3s.getKubeConfigYaml()))
            .build();
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | Error e) {
      return false;
    }
  }

  @BeforeEach
  void requireDocker() {
    Assumptions.assumeTrue(
        k3s != null,
        "Docker is not available: skipping the k3s integration test (it runs where Docker is)");
  }

  @AfterAll
  static void stopK3s() {
    if (admin != null) {
      admin.close();
    }
    if (k3s != null) {
      k3s.stop();
    }
  }

  @Test
  void thePickerSourceWorksAgainstARealApiServer() throws Exception {
    // given the CRDs, the namespace, the picker's RBAC and a node without a kubelet
    for (Path crd : MockCluster.crds()) {
      try (InputStream in = Files.newInputStream(crd)) {
        admin.apiextensions().v1().customResourceDefinitions().load(in).serverSideApply();
      }
    }
    for (Path crd : MockCluster.crds()) {
      String name = crd.getFileName().toString().replace(".yaml", "");
      admin
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(name)
          .waitUntilCondition(CrdReady::established, 60, java.util.concurrent.TimeUnit.SECONDS);
    }
    admin
        .resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
        .serverSideApply();
    try (InputStream in =
        Files.newInputStream(MockCluster.repoRoot().resolve("deploy/rbac/picker-rbac.yaml"))) {
      admin.load(in).serverSideApply();
    }
    admin
        .resource(
            new NodeBuilder().withNewMetadata().withName("fake-gpu-node").endMetadata().build())
        .serverSideApply();

    Map<String, String> labels = Map.of("app", "vllm", "gpu", "H100-80");
    admin.resource(pool("llama", labels, 8000, 8001)).create();
    readyPod("a", labels, "10.42.0.11");

    // the schema and CEL rules work: an unknown scorer type and an all-zero blend are refused
    assertThatThrownBy(
            () ->
                admin
                    .resource(policy("bad", spec("llama", List.of(scorer("nope", 1)), null)))
                    .create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("nope");
    assertThatThrownBy(
            () ->
                admin
                    .resource(
                        policy("zero", spec("llama", List.of(scorer("queue-scorer", 0)), null)))
                    .create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("at least one scorer must have weight > 0");

    // when the picker runs as its ServiceAccount
    Config asPicker = Config.fromKubeconfig(k3s.getKubeConfigYaml());
    asPicker.setImpersonateUsername(SA);
    asPicker.setNamespace(NS);
    Datastore datastore =
        new Datastore(DatastoreConfig.DEFAULT, new InFlightTracker(), System::nanoTime);
    PolicyRegistry registry = PolicyRegistry.withDefaults();
    AtomicReference<ModelResolver> resolver =
        new AtomicReference<>(ModelResolver.of(new ModelsConfig(List.of(), null)));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(asPicker).build();
        KubernetesPoolSource source =
            new KubernetesPoolSource(
                    client,
                    KubernetesSettings.of(NS, null, "picker-0")
                        .withLeaseTimings(
                            Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1)),
                    datastore,
                    registry,
                    resolver,
                    Clock.systemUTC())
                .start()) {
      // then pods become endpoints, per target port
      Await.until("ready", source::ready);
      Await.until("two endpoints", () -> datastore.endpoints("llama") == 2);
      readyPod("b", labels, "10.42.0.12");
      Await.until("four endpoints", () -> datastore.endpoints("llama") == 4);

      // a policy applies, and its status is written by the Lease holder
      admin
          .resource(policy("llama", spec("llama", List.of(scorer("queue-scorer", 3)), null)))
          .create();
      Await.until(
          "policy in force",
          () -> weights(registry.policy("llama")).equals(Map.of("queue-scorer", 3.0)));
      Await.until("leader", source::leader);
      awaitReason("llama", "Accepted");

      // a change the schema allows but the picker rejects keeps the last good policy
      admin
          .resources(PickerPolicy.class)
          .inNamespace(NS)
          .withName("llama")
          .edit(
              p -> {
                p.setSpec(
                    spec(
                        "llama",
                        List.of(
                            new ScorerSpec(
                                "predicted-latency-scorer", 2.0, Map.of("meanPromptTokens", -5.0))),
                        null));
                return p;
              });
      AcceptanceStatus s = awaitReason("llama", "Invalid");
      assertThat(StatusWriter.accepted(s).getMessage())
          .startsWith("spec.scorers[0].parameters.meanPromptTokens");
      assertThat(weights(registry.policy("llama"))).isEqualTo(Map.of("queue-scorer", 3.0));

      // a terminating pod leaves
      admin.pods().inNamespace(NS).withName("a").withGracePeriod(300).delete();
      Await.until("a leaves", () -> datastore.endpoints("llama") == 2);
    }
  }

  private static void readyPod(String name, Map<String, String> labels, String ip) {
    Pod p =
        new PodBuilder(pod(name, labels))
            .editSpec()
            .withNodeName("fake-gpu-node")
            .endSpec()
            .build();
    admin.resource(p).create();
    Pod withStatus = K8sObjects.running(admin.resource(p).get(), ip, true);
    admin.resource(withStatus).updateStatus();
  }

  private static AcceptanceStatus awaitReason(String name, String reason) {
    AcceptanceStatus[] found = new AcceptanceStatus[1];
    Await.until(
        name + " " + reason,
        () -> {
          PickerPolicy p = admin.resources(PickerPolicy.class).inNamespace(NS).withName(name).get();
          var c = StatusWriter.accepted(p.getStatus());
          found[0] = p.getStatus();
          return c != null
              && reason.equals(c.getReason())
              && p.getStatus().observedGeneration() != null
              && p.getStatus().observedGeneration().equals(p.getMetadata().getGeneration());
        });
    return found[0];
  }

  /** CRD readiness. */
  static final class CrdReady {
    static boolean established(CustomResourceDefinition crd) {
      return crd != null
          && crd.getStatus() != null
          && crd.getStatus().getConditions().stream()
              .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }
  }
}
