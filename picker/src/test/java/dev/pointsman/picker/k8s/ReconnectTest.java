package dev.pointsman.picker.k8s;

import static dev.pointsman.picker.k8s.K8sObjects.pod;
import static dev.pointsman.picker.k8s.K8sObjects.policy;
import static dev.pointsman.picker.k8s.K8sObjects.pool;
import static dev.pointsman.picker.k8s.K8sObjects.running;
import static dev.pointsman.picker.k8s.PolicyTest.scorer;
import static dev.pointsman.picker.k8s.PolicyTest.spec;
import static dev.pointsman.picker.k8s.PolicyTest.weights;

import dev.pointsman.testing.Await;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The API server goes away and comes back: the informers notice, re-watch, and later changes reach
 * the picker. (Changes made while the server is down are not replayed by the mock server, which
 * keeps no event history; a real API server replays them from the watch's resourceVersion or
 * answers 410 Gone, after which fabric8 re-lists. The k3s test covers a real server.)
 */
class ReconnectTest {
  @Test
  void convergesAfterTheApiServerRestarts() {
    try (MockCluster cluster = new MockCluster()) {
      MockCluster.Picker picker = cluster.picker();
      Map<String, String> labels = Map.of("app", "vllm");
      cluster.admin.resource(pool("llama", labels, 8000)).create();
      cluster.admin.resource(running(pod("a", labels), "10.0.0.1", true)).create();
      Await.until("one endpoint", () -> picker.datastore.endpoints("llama") == 1);

      cluster.stopServer();
      Await.until("watches dropped", () -> !picker.source.watching());
      cluster.restartServer();
      Await.until("watches back", picker.source::watching);
      cluster.admin.resource(running(pod("b", labels), "10.0.0.2", true)).create();
      cluster
          .admin
          .resource(policy("llama", spec("llama", List.of(scorer("queue-scorer", 4)), null)))
          .create();

      Await.until("new pod seen", () -> picker.datastore.endpoints("llama") == 2);
      Await.until(
          "new policy in force",
          () -> weights(picker.registry.policy("llama")).equals(Map.of("queue-scorer", 4.0)));

      // and again
      cluster.stopServer();
      Await.until("watches dropped again", () -> !picker.source.watching());
      cluster.restartServer();
      Await.until("watches back again", picker.source::watching);
      cluster.admin.pods().inNamespace(MockCluster.NS).withName("a").delete();
      Await.until("deleted pod gone", () -> picker.datastore.endpoints("llama") == 1);
    }
  }
}
