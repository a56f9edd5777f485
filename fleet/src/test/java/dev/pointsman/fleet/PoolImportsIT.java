package dev.pointsman.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.fleet.app.FleetApp;
import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.fleet.k8s.MockImports;
import dev.pointsman.testing.Await;
import dev.pointsman.testing.TestCa;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet tier wired with {@code poolImports} on: its own Kubernetes client (configured here
 * through fabric8's system properties, as kubeconfig or the service account would) reads the
 * imports of fabric8's mock API server, and shows them at {@code /debug/pool-imports} and in its
 * meters; with the API server unreachable it serves as without imports.
 */
class PoolImportsIT {
  private static final String NS = "inference";
  private static final List<String> PROPERTIES =
      List.of(
          "kubernetes.master",
          "kubernetes.auth.tryKubeConfig",
          "kubernetes.auth.tryServiceAccount",
          "kubernetes.watch.reconnectInterval",
          "kubernetes.request.retry.backoffLimit");

  @TempDir Path dir;
  private final Map<String, String> saved = new HashMap<>();
  private ClusterStack solo;
  private TestCa ca;
  private FleetApp fleet;
  private KubernetesMockServer server;
  private KubernetesClient admin;

  @BeforeEach
  void start() {
    PROPERTIES.forEach(p -> saved.put(p, System.getProperty(p)));
    ca = TestCa.create(dir, "cluster-ca");
    solo = ClusterStack.start("solo", ca);
  }

  @AfterEach
  void stop() {
    if (fleet != null) {
      fleet.close();
    }
    solo.close();
    if (admin != null) {
      admin.close();
      server.destroy();
    }
    saved.forEach(
        (p, v) -> {
          if (v == null) {
            System.clearProperty(p);
          } else {
            System.setProperty(p, v);
          }
        });
  }

  /** The fleet, its Kubernetes client pointed at {@code apiServer}. */
  private FleetApp fleet(String apiServer) {
    System.setProperty("kubernetes.master", apiServer);
    System.setProperty("kubernetes.auth.tryKubeConfig", "false");
    System.setProperty("kubernetes.auth.tryServiceAccount", "false");
    System.setProperty("kubernetes.watch.reconnectInterval", "50");
    System.setProperty("kubernetes.request.retry.backoffLimit", "1");
    TestCa.Issued me = ca.client("fleet");
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1, tls: plaintext, drainSeconds: 0}
        admin: {port: 0, host: 127.0.0.1}
        regions: [here]
        summaries: {intervalMillis: 50, certChain: "%s", privateKey: "%s", caFile: "%s"}
        poolImports: {enabled: true, namespace: %s}
        clusters:
          - {name: solo, gateway: "%s", summary: "%s", authority: localhost, tier: spot, \
        pricePerGpuHour: 1, rttMillis: {here: 1}}
        """
            .formatted(
                me.certChain(),
                me.privateKey(),
                ca.caFile(),
                NS,
                solo.gatewayAddress(),
                solo.summaryAddress());
    return new FleetApp(FleetConfig.parse(yaml)).start();
  }

  private String admin(String path) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + fleet.adminPort() + path))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  @Test
  void theImportsReadAreShownAndMetered() throws Exception {
    server = MockImports.server(new KubernetesCrudDispatcher());
    admin = server.createClient();
    MockImports.installCrd(admin);
    MockImports.exportedBy(admin, NS, "main", "solo", "ghost");

    fleet = fleet(admin.getConfiguration().getMasterUrl());

    Await.until(
        "the imports read", () -> "watching".equals(fleet.poolImportsReport().get("state")));
    Await.until("the summary read", () -> fleet.share("solo") == 1);
    assertThat(fleet.poolImportsReport())
        .containsEntry("exporters", Map.of("main", Set.of("ghost", "solo")))
        .containsEntry("unknownClusters", Set.of("ghost"));
    assertThat(admin("/debug/pool-imports")).contains("\"watching\"").contains("\"ghost\"");
    assertThat(admin("/metrics"))
        .containsPattern("pointsman_fleet_pool_imports_applied(\\{[^}]*})? 1\\.0")
        .containsPattern("pointsman_fleet_pool_imports_unknown_clusters(\\{[^}]*})? 1\\.0");
  }

  @Test
  void withTheApiServerUnreachableTheFleetServesAsWithoutImports() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }

    fleet = fleet("http://127.0.0.1:" + closed);

    Await.until(
        "the failure seen", () -> "unavailable".equals(fleet.poolImportsReport().get("state")));
    Await.until("the summary read", () -> fleet.share("solo") == 1);
    assertThat(fleet.ready()).isTrue();
    assertThat(fleet.poolImportsReport()).containsEntry("lastFailure", "unreachable");
    assertThat(admin("/metrics"))
        .containsPattern("pointsman_fleet_pool_imports_applied(\\{[^}]*})? 0\\.0")
        .containsPattern(
            "pointsman_fleet_pool_imports_failures_total\\{[^}]*reason=\"unreachable\"[^}]*} [1-9]");
  }
}
