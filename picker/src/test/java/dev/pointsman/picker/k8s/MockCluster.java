package dev.pointsman.picker.k8s;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.datastore.DatastoreConfig;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.scheduling.InFlightTracker;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * fabric8's mock API server in CRUD mode (watches work), with the repository's CRDs installed so
 * that status subresources behave, and one picker source wired to a fresh datastore, registry and
 * resolver. The server can be stopped and restarted on the same port with the same state.
 */
final class MockCluster implements AutoCloseable {
  static final String NS = "inference";

  private final KubernetesCrudDispatcher dispatcher = new KubernetesCrudDispatcher();
  private final List<Picker> pickers = new ArrayList<>();
  private KubernetesMockServer server;
  private int port;
  final KubernetesClient admin;

  MockCluster() {
    startServer(0);
    admin = server.createClient();
    for (Path crd : crds()) {
      try (InputStream in = Files.newInputStream(crd)) {
        admin.apiextensions().v1().customResourceDefinitions().load(in).create();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /**
   * As kubectl edit does: read, change, write; retried when another writer (the status writer)
   * changed the object in between and the write was refused with 409.
   */
  static <T extends io.fabric8.kubernetes.api.model.HasMetadata> void editRetrying(
      io.fabric8.kubernetes.client.dsl.Resource<T> resource,
      java.util.function.UnaryOperator<T> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        resource.edit(change);
        return;
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 20) {
          throw e;
        }
      }
    }
  }

  /** The repository's {@code crds/*.yaml}. */
  static List<Path> crds() {
    Path dir = repoRoot().resolve("crds");
    try (var s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static Path repoRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("crds"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("crds/ not found above " + Path.of("").toAbsolutePath());
    }
    return p;
  }

  private void startServer(int onPort) {
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    if (onPort == 0) {
      server.init();
    } else {
      try {
        server.init(InetAddress.getByName("localhost"), onPort);
      } catch (java.net.UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    }
    port = server.getPort();
  }

  /** Stops the API server: every connection and watch drops. */
  void stopServer() {
    server.destroy();
  }

  /** Starts it again on the same port, with the state it had. */
  void restartServer() {
    startServer(port);
  }

  /** A picker replica: its own client, datastore, registry and resolver. */
  Picker picker(String boundPool, String identity) {
    return picker(boundPool, identity, null);
  }

  /**
   * A picker replica with flow control's {@code budgets}: it watches TenantBudgets too, and
   * refreshes their status every 100 ms.
   */
  Picker picker(String boundPool, String identity, TokenBudgets budgets) {
    UnknownFields unknown = new UnknownFields();
    KubernetesClient client =
        server.createClient(
            b ->
                unknown.configure(
                    b.editOrNewConfig()
                        .withNamespace(NS)
                        .withWatchReconnectInterval(50)
                        .withRequestRetryBackoffInterval(50)
                        .endConfig()));
    Picker p = new Picker(client, boundPool, identity, unknown, budgets);
    pickers.add(p);
    return p;
  }

  Picker picker() {
    return picker(null, "picker-0");
  }

  @Override
  public void close() {
    pickers.forEach(Picker::close);
    admin.close();
    server.destroy();
  }

  /** One replica of the picker, started. */
  static final class Picker implements AutoCloseable {
    final KubernetesClient client;
    final Datastore datastore =
        new Datastore(DatastoreConfig.DEFAULT, new InFlightTracker(), System::nanoTime);
    final PolicyRegistry registry = PolicyRegistry.withDefaults();
    final AtomicReference<ModelResolver> resolver =
        new AtomicReference<>(ModelResolver.of(new ModelsConfig(List.of(), null)));
    final KubernetesPoolSource source;
    final UnknownFields unknownFields;

    Picker(
        KubernetesClient client,
        String boundPool,
        String identity,
        UnknownFields unknown,
        TokenBudgets budgets) {
      this.client = client;
      this.unknownFields = unknown;
      KubernetesSettings settings =
          KubernetesSettings.of(NS, boundPool, identity)
              .withLeaseTimings(
                  Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(200));
      this.source =
          (budgets == null
                  ? new KubernetesPoolSource(
                      client, settings, datastore, registry, resolver, Clock.systemUTC())
                  : new KubernetesPoolSource(
                      client,
                      settings,
                      datastore,
                      registry,
                      resolver,
                      Clock.systemUTC(),
                      budgets,
                      Duration.ofMillis(100)))
              .start();
    }

    @Override
    public void close() {
      source.close();
      client.close();
    }
  }
}
