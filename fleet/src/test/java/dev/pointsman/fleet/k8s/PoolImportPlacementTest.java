package dev.pointsman.fleet.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.RequestHead;
import dev.pointsman.extproc.Verdict;
import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.fleet.extproc.FleetHandler;
import dev.pointsman.fleet.health.ClusterHealth;
import dev.pointsman.fleet.routing.Cluster;
import dev.pointsman.fleet.routing.PoolExports;
import dev.pointsman.fleet.summary.Received;
import dev.pointsman.fleet.telemetry.FleetMetrics;
import dev.pointsman.inference.request.ApiKind;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.picker.summary.ClusterSummary;
import dev.pointsman.picker.summary.PoolSummary;
import dev.pointsman.testing.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * InferencePoolImports on fabric8's mock API server (CRUD mode, watches live) steer the fleet's
 * placement: three equal clusters but for price, each serving pool {@code llm-pool} (model {@code
 * llama}) and pool {@code chat} (model {@code qwen}); without imports the cheapest takes every
 * request. The API server answers 404 or 403 for the group while told to, as one without the CRD or
 * without the RBAC grant does.
 */
class PoolImportPlacementTest {
  private static final String NS = "inference";
  private static final FleetConfig CONFIG =
      FleetConfig.parse(
          """
          regions: [us]
          sloTtftMillis: 1000
          summaries: {certChain: f.crt, privateKey: f.key, caFile: ca.pem}
          failover: {rampMillis: 0}
          clusters:
            - {name: a, gateway: "10.0.0.1:8443", summary: "a:1", tier: spot, pricePerGpuHour: 1,
               rttMillis: {us: 10}}
            - {name: b, gateway: "10.0.0.2:8443", summary: "b:1", tier: spot, pricePerGpuHour: 2,
               rttMillis: {us: 10}}
            - {name: c, gateway: "10.0.0.3:8443", summary: "c:1", tier: spot, pricePerGpuHour: 3,
               rttMillis: {us: 10}}
          """);

  private final Refusing dispatcher = new Refusing();
  private final List<Cluster> clusters = new ArrayList<>();
  private final List<KubernetesClient> clients = new ArrayList<>();
  private KubernetesMockServer server;
  private KubernetesClient admin;
  private PoolImportWatch watch;
  private FleetHandler handler;

  /** A CRUD server that answers {@code refuse} for the InferencePoolImport group while set. */
  private static final class Refusing extends KubernetesCrudDispatcher {
    volatile int refuse;

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      int code = refuse;
      if (code > 0 && request.getPath().startsWith("/apis/" + PoolImports.GROUP + "/")) {
        return new MockResponse()
            .setResponseCode(code)
            .setBody(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":"
                    + code
                    + ",\"reason\":\""
                    + (code == 404 ? "NotFound" : "Forbidden")
                    + "\"}");
      }
      return super.dispatch(request);
    }
  }

  @BeforeEach
  void setUp() {
    server = MockImports.server(dispatcher);
    admin = server.createClient();
    long now = System.nanoTime();
    for (var c : CONFIG.clusters()) {
      ClusterHealth health = new ClusterHealth(CONFIG.failover().toFailover());
      Received summary =
          Received.accept(
              c.name(),
              new ClusterSummary(
                  1,
                  c.name(),
                  1,
                  0,
                  250,
                  1000,
                  List.of(pool("llm-pool", "llama"), pool("chat", "qwen"))));
      health.summaryReceived(now);
      clusters.add(new Cluster(c, health, () -> summary));
    }
  }

  private static PoolSummary pool(String name, String model) {
    return new PoolSummary(
        name, List.of(model), 2, 2, 100, 0, 0.1, false, 0, List.of(), List.of(), -1);
  }

  @AfterEach
  void tearDown() {
    if (watch != null) {
      watch.close();
    }
    clients.forEach(KubernetesClient::close);
    admin.close();
    server.destroy();
  }

  private void startWatch(KubernetesClient client) {
    watch = new PoolImportWatch(client, NS, clusters.stream().map(Cluster::name).toList()).start();
    handler =
        new FleetHandler(
            CONFIG,
            clusters,
            () -> 0.5,
            System::nanoTime,
            new FleetMetrics(new SimpleMeterRegistry(), clusters, System::nanoTime),
            watch::exports);
  }

  private KubernetesClient client() {
    KubernetesClient c =
        server.createClient(
            b ->
                b.editOrNewConfig()
                    .withNamespace(NS)
                    .withWatchReconnectInterval(50)
                    .withRequestRetryBackoffInterval(50)
                    .withRequestRetryBackoffLimit(1)
                    .endConfig());
    clients.add(c);
    return c;
  }

  private void installCrd() {
    MockImports.installCrd(admin);
  }

  private Resource<GenericKubernetesResource> imported(String pool) {
    return MockImports.imported(admin, NS, pool);
  }

  private void exportedBy(String pool, String... clusterNames) {
    MockImports.exportedBy(admin, NS, pool, clusterNames);
  }

  private Set<String> exporters(String pool) {
    return watch.exports().exporters().getOrDefault(pool, Set.of());
  }

  private String placed(String model) {
    // the clusters keep reporting, as live ones do: a test slowed past the summaries' staleness
    // bound (the watch's start on a busy machine) must not read every cluster as drained
    long now = System.nanoTime();
    clusters.forEach(c -> c.health().summaryReceived(now));
    Verdict v =
        handler.decide(
            new RequestHead(
                "POST",
                "/v1/chat/completions",
                "application/json",
                "r1",
                false,
                null,
                null,
                -1,
                null,
                null,
                Map.of()),
            new ParsedRequest(
                model, true, false, "hello", 5, 10, OptionalInt.empty(), ApiKind.CHAT));
    return switch (v) {
      case Verdict.Forward f -> f.destination();
      default -> v.toString();
    };
  }

  private static final String A = "10.0.0.1:8443";
  private static final String B = "10.0.0.2:8443";
  private static final String C = "10.0.0.3:8443";

  @Test
  void anImportedPoolGoesOnlyToItsExportersAndFollowsItsStatusUntilDeleted() {
    installCrd();
    startWatch(client());
    Await.until("listed", () -> watch.state() == PoolImportWatch.State.WATCHING);
    assertThat(placed("llama")).isEqualTo(A);

    exportedBy("llm-pool", "b", "c");
    Await.until("import read", () -> exporters("llm-pool").equals(Set.of("b", "c")));
    assertThat(placed("llama")).isEqualTo(B);
    assertThat(placed("qwen")).as("a pool no import names").isEqualTo(A);

    exportedBy("llm-pool", "c");
    Await.until("b removed", () -> exporters("llm-pool").equals(Set.of("c")));
    assertThat(placed("llama")).isEqualTo(C);

    imported("llm-pool").delete();
    Await.until("import deleted", () -> watch.exports().equals(PoolExports.NONE));
    assertThat(placed("llama")).isEqualTo(A);
    assertThat(watch.state()).isEqualTo(PoolImportWatch.State.WATCHING);
  }

  @Test
  void importsThereBeforeTheWatchStartsArePublishedByTheTimeItSaysWatching() {
    // fabric8 completes the informer's start before it hands the listed objects to the handler;
    // "watching" must not be seen before what was listed is published (CI saw "watching" with no
    // exports, and a count of imports without the exports). Twenty starts, each read the moment
    // the state changes.
    installCrd();
    exportedBy("llm-pool", "b", "z");
    for (int round = 0; round < 20; round++) {
      if (watch != null) {
        watch.close();
      }
      startWatch(client());
      PoolImportWatch.State state;
      do {
        state = watch.state();
        Thread.onSpinWait();
      } while (state == PoolImportWatch.State.STARTING);

      assertThat(state).as("round %d", round).isEqualTo(PoolImportWatch.State.WATCHING);
      assertThat(exporters("llm-pool")).as("round %d", round).isEqualTo(Set.of("b", "z"));
      assertThat(watch.report())
          .as("round %d", round)
          .containsEntry("imports", 1)
          .containsEntry("unknownClusters", Set.of("z"));
      assertThat(placed("llama")).as("round %d", round).isEqualTo(B);
    }
  }

  @Test
  void anExportingClusterTheFleetDoesNotKnowIsCountedOnceAndNotRoutedTo() {
    installCrd();
    startWatch(client());
    Await.until("listed", () -> watch.state() == PoolImportWatch.State.WATCHING);

    exportedBy("llm-pool", "c", "z");
    exportedBy("chat", "z");
    Await.until("imports read", () -> watch.exports().exporters().size() == 2);

    assertThat(placed("llama")).isEqualTo(C);
    assertThat(placed("qwen"))
        .as("exported only where the fleet cannot route")
        .contains("no_cluster");
    assertThat(watch.unknownClusters()).containsExactly("z");
    assertThat(watch.report()).containsEntry("imports", 2);
  }

  @Test
  void withoutTheCrdPlacementIsUnchangedAndACrdInstalledLaterIsPickedUp() {
    dispatcher.refuse = 404;
    startWatch(client());
    Await.until("the 404 seen", () -> watch.failures(PoolImportWatch.Failure.CRD_MISSING) > 0);

    assertThat(watch.state()).isEqualTo(PoolImportWatch.State.UNAVAILABLE);
    assertThat(watch.exports()).isEqualTo(PoolExports.NONE);
    assertThat(placed("llama")).isEqualTo(A);
    assertThat(watch.report()).containsEntry("lastFailure", "crd_missing");

    dispatcher.refuse = 0;
    installCrd();
    exportedBy("llm-pool", "b");
    Await.until("listed after retrying", () -> watch.state() == PoolImportWatch.State.WATCHING);
    Await.until("import read", () -> exporters("llm-pool").equals(Set.of("b")));
    assertThat(placed("llama")).isEqualTo(B);
  }

  @Test
  void refusedByRbacPlacementIsUnchanged() {
    installCrd();
    exportedBy("llm-pool", "b");
    dispatcher.refuse = 403;
    startWatch(client());
    Await.until("the 403 seen", () -> watch.failures(PoolImportWatch.Failure.FORBIDDEN) > 0);

    assertThat(watch.state()).isEqualTo(PoolImportWatch.State.UNAVAILABLE);
    assertThat(placed("llama")).isEqualTo(A);
  }

  @Test
  void withTheApiServerDownPlacementIsUnchanged() throws Exception {
    int closedPort;
    try (var socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    KubernetesClient down =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl("http://127.0.0.1:" + closedPort)
                    .withNamespace(NS)
                    .withWatchReconnectInterval(50)
                    .withRequestRetryBackoffInterval(50)
                    .withRequestRetryBackoffLimit(1)
                    .build())
            .build();
    clients.add(down);
    startWatch(down);
    Await.until(
        "the refused connection seen",
        () -> watch.failures(PoolImportWatch.Failure.UNREACHABLE) > 0);

    assertThat(watch.state()).isEqualTo(PoolImportWatch.State.UNAVAILABLE);
    assertThat(placed("llama")).isEqualTo(A);
  }
}
