package dev.pointsman.picker.app;

import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.k8s.KubernetesPoolSource;
import dev.pointsman.picker.k8s.KubernetesSettings;
import dev.pointsman.runtime.Shutdown;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pointsman picker}: the ext_proc endpoint picker. */
@Command(
    name = "picker",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the endpoint picker: Envoy's ext_proc service that reads each request's model,",
      "picks the pool and the model-server endpoint, and routes the request there."
    })
public final class PickerCommand implements Callable<Integer> {

  @Option(names = "--config", description = "Picker config file (local mode).")
  Path config;

  @Option(
      names = "--pool",
      description = "Serve only this pool, as a Gateway API Inference Extension endpoint picker.")
  String pool;

  @Option(
      names = "--kubernetes",
      description =
          "Read InferencePools, Pods, ModelRoutes and PickerPolicies from the cluster"
              + " (--config then only sets the servers; its pools and models are ignored).")
  boolean kubernetes;

  @Option(
      names = "--namespace",
      description =
          "Namespace watched in --kubernetes mode (default: POD_NAMESPACE, else the"
              + " kubeconfig or service-account namespace).")
  String namespace;

  @Option(names = "--grpc-port", description = "Override grpc.port.")
  Integer grpcPort;

  @Option(names = "--admin-port", description = "Override admin.port.")
  Integer adminPort;

  @Option(names = "--plaintext", description = "Serve gRPC without TLS (local use only).")
  boolean plaintext;

  @Override
  public Integer call() throws Exception {
    if (config == null && !kubernetes) {
      System.err.println("pointsman picker: --config FILE is required (local mode)");
      return 2;
    }
    PickerConfig cfg;
    PickerApp app;
    try {
      cfg = overrides(config == null ? serverDefaults() : PickerConfig.load(config));
      app = kubernetes ? new PickerApp(cfg, pool, kubernetesSource()) : new PickerApp(cfg, pool);
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      System.err.println("pointsman picker: " + e.getMessage());
      return 2;
    }
    app.start();
    // the app's close takes the grace period, then up to the drain timeout, then a forced stop
    Duration closeBound =
        cfg.shutdown().grace().plus(Duration.ofSeconds(cfg.grpc().drainSeconds())).plusSeconds(10);
    AutoCloseable drain =
        new AutoCloseable() {
          @Override
          public void close() {
            app.drainAndClose();
          }

          @Override
          public String toString() {
            return "picker (grace " + cfg.shutdown().grace() + ")";
          }
        };
    new Shutdown(List.of(drain), closeBound).installHook();
    System.out.printf(
        "pointsman picker: ext_proc on :%d (%s), admin on :%d, pools %s%n",
        app.grpcPort(), cfg.grpc().tls(), app.adminPort(), app.datastore().pools());
    app.awaitTermination();
    return 0;
  }

  /** Server settings at their defaults, for --kubernetes without --config. */
  private static PickerConfig serverDefaults() {
    return PickerConfig.parse("{}");
  }

  private PoolSource kubernetesSource() {
    String ns = namespace != null ? namespace : System.getenv("POD_NAMESPACE");
    if (ns == null || ns.isBlank()) {
      ns = KubernetesPoolSource.defaultNamespace();
    }
    String identity = System.getenv("POD_NAME");
    if (identity == null || identity.isBlank()) {
      identity = hostName();
    }
    return new KubernetesSource(KubernetesSettings.of(ns, pool, identity));
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "pointsman-picker-" + ProcessHandle.current().pid();
    }
  }

  private PickerConfig overrides(PickerConfig c) {
    var grpc = c.grpc();
    if (grpcPort != null) {
      grpc = grpc.withPort(grpcPort);
    }
    if (plaintext) {
      grpc = grpc.withTls("plaintext");
    }
    var admin = adminPort == null ? c.admin() : c.admin().withPort(adminPort);
    return new PickerConfig(
        grpc,
        admin,
        c.extProc(),
        c.scrape(),
        c.models(),
        c.defaultModel(),
        c.pools(),
        c.objectives(),
        c.decisionLog(),
        c.protocol(),
        c.shutdown());
  }
}
