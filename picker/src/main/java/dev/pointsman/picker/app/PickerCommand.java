package dev.pointsman.picker.app;

import dev.pointsman.config.Yaml;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.config.PoolConfig;
import dev.pointsman.picker.k8s.KubernetesPoolSource;
import dev.pointsman.picker.k8s.KubernetesSettings;
import dev.pointsman.runtime.Shutdown;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pointsman picker}: the ext_proc endpoint picker. */
@Command(
    name = "picker",
    mixinStandardHelpOptions = true,
    header =
        "Runs the endpoint picker, the ext_proc service that picks each request's model server.",
    description = {
      "Runs the endpoint picker: the ext_proc service Envoy (or the local gateway) asks where each"
          + " request goes. It reads the request's model, picks the pool and the model-server"
          + " endpoint, and returns it in x-gateway-destination-endpoint.",
      "",
      "Local mode (--config): pools and endpoints come from the file; every listener binds"
          + " 127.0.0.1 unless the file or --bind says otherwise, and with grpc.tls: self-signed"
          + " the certificate is written to --certificate-out for the local gateway to trust."
          + " Kubernetes mode (--kubernetes): InferencePools, Pods, ModelRoutes and PickerPolicies"
          + " come from the cluster and the listeners bind 0.0.0.0.",
      "",
      "Config keys (grpc, admin, extProc, scrape, models, defaultModel, pools, objectives,"
          + " replication):"
          + " docs/picker.md."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  ./pointsman picker --config examples/picker.yaml",
      "  ./pointsman picker --config examples/picker.yaml --grpc-port 19002 \\",
      "      --admin-port 19090 --endpoint-port-base 18001"
    })
public final class PickerCommand implements Callable<Integer> {

  /** Where local mode writes a self-signed certificate unless told otherwise. */
  public static final Path DEFAULT_CERTIFICATE_OUT = Path.of(".pointsman", "picker.pem");

  /** What a Kubernetes pod binds unless its file says otherwise: every interface. */
  static final String KUBERNETES_DEFAULTS = "{grpc: {host: 0.0.0.0}, admin: {host: 0.0.0.0}}";

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Picker config file (required in local mode; see docs/picker.md).")
  Path config;

  @Option(
      names = "--pool",
      paramLabel = "NAME",
      description = "Serves only this pool, as a Gateway API Inference Extension endpoint picker.")
  String pool;

  @Option(
      names = "--kubernetes",
      description =
          "Reads InferencePools, Pods, ModelRoutes and PickerPolicies from the cluster; --config"
              + " then only sets the servers, and its pools and models are ignored.")
  boolean kubernetes;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      description =
          "Namespace watched in --kubernetes mode (default: POD_NAMESPACE, else the"
              + " kubeconfig or service-account namespace).")
  String namespace;

  @Option(names = "--grpc-port", paramLabel = "PORT", description = "Overrides grpc.port.")
  Integer grpcPort;

  @Option(names = "--admin-port", paramLabel = "PORT", description = "Overrides admin.port.")
  Integer adminPort;

  @Option(
      names = "--bind",
      paramLabel = "ADDR",
      description =
          "Overrides grpc.host and admin.host, the address both listeners bind (default"
              + " 127.0.0.1 in local mode, 0.0.0.0 with --kubernetes).")
  String bind;

  @Option(
      names = "--endpoint-port-base",
      paramLabel = "PORT",
      description =
          "Local mode: gives the file's endpoints the ports PORT, PORT+1, ... in file order, to"
              + " follow `simulate --port-base PORT` without editing the file.")
  Integer endpointPortBase;

  @Option(
      names = "--replication-bind",
      paramLabel = "ADDR",
      description =
          "Overrides replication.bindAddress, the address the replicas' cluster transport binds"
              + " and advertises (the Helm chart passes the pod's IP).")
  String replicationBind;

  @Option(names = "--plaintext", description = "Serves gRPC without TLS (loopback use only).")
  boolean plaintext;

  @Option(
      names = "--certificate-out",
      paramLabel = "FILE",
      description =
          "Where to write the self-signed certificate (PEM) for clients to trust, with"
              + " grpc.tls: self-signed. Default in local mode: .pointsman/picker.pem, the"
              + " file examples/local-gateway.yaml trusts.")
  Path certificateOut;

  @Override
  public Integer call() throws Exception {
    if (config == null && !kubernetes) {
      System.err.println(
          "pointsman picker: --config FILE is required in local mode"
              + " (e.g. --config examples/picker.yaml), or use --kubernetes");
      return 2;
    }
    PickerConfig cfg;
    PickerApp app;
    try {
      cfg = config();
      app = kubernetes ? new PickerApp(cfg, pool, kubernetesSource()) : new PickerApp(cfg, pool);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      System.err.println("pointsman picker: " + e.getMessage());
      return 2;
    }
    try {
      app.start();
    } catch (IllegalArgumentException | UncheckedIOException e) {
      // a listener that cannot bind, or TLS files that cannot be read (summary.clientCa, ...)
      System.err.println("pointsman picker: " + e.getMessage());
      app.close();
      return 2;
    }
    String tls = cfg.grpc().tls();
    Path written;
    try {
      written = writeCertificate(app, cfg).orElse(null);
    } catch (UncheckedIOException e) {
      System.err.println("pointsman picker: " + e.getMessage());
      app.close();
      return 2;
    }
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
        "pointsman picker: ext_proc on %s:%d (%s%s), admin on %s:%d, pools %s%s%n",
        cfg.grpc().host(),
        app.grpcPort(),
        tls,
        written == null ? "" : ", certificate in " + written,
        cfg.admin().host(),
        app.adminPort(),
        app.datastore().pools(),
        app.summaryPort().isPresent()
            ? ", summary of cluster '"
                + cfg.summary().cluster()
                + "' on "
                + cfg.summary().host()
                + ":"
                + app.summaryPort().getAsInt()
                + " (mutual TLS)"
            : "");
    app.awaitTermination();
    return 0;
  }

  /**
   * Writes a started picker's certificate where {@link #certificateFile(PickerConfig)} says, if it
   * has one and the flags ask for it; returns the file written.
   */
  public Optional<Path> writeCertificate(PickerApp app, PickerConfig cfg) {
    Path file = certificateFile(cfg);
    if (file == null || app.certificatePem().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(CertificateFile.write(file, app.certificatePem().get()));
  }

  /** The configuration the flags describe: the file (or defaults) with every override applied. */
  public PickerConfig config() {
    String defaults = kubernetes ? KUBERNETES_DEFAULTS : "{}";
    PickerConfig file =
        config == null ? serverDefaults(defaults) : PickerConfig.load(config, defaults);
    return overrides(file);
  }

  /**
   * Where the certificate goes, or null for nowhere: {@code --certificate-out}, else, in local mode
   * with a self-signed certificate (which nobody could trust otherwise), the default file. A
   * certificate from files, or any in Kubernetes mode, is written only when asked.
   */
  public Path certificateFile(PickerConfig cfg) {
    if (certificateOut != null) {
      return certificateOut;
    }
    boolean selfSigned = cfg.grpc().tls().equals("self-signed");
    return kubernetes || !selfSigned ? null : DEFAULT_CERTIFICATE_OUT;
  }

  /** Server settings at their defaults, for --kubernetes without --config. */
  private static PickerConfig serverDefaults(String defaults) {
    return Yaml.read("{}", defaults, PickerConfig.class, null);
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
    var admin = c.admin();
    if (grpcPort != null) {
      grpc = grpc.withPort(grpcPort);
    }
    if (adminPort != null) {
      admin = admin.withPort(adminPort);
    }
    if (bind != null) {
      grpc = grpc.withHost(bind);
      admin = admin.withHost(bind);
    }
    if (plaintext) {
      grpc = grpc.withTls("plaintext");
    }
    return new PickerConfig(
        grpc,
        admin,
        c.extProc(),
        c.scrape(),
        c.models(),
        c.defaultModel(),
        endpointPortBase == null ? c.pools() : shifted(c.pools(), endpointPortBase),
        c.objectives(),
        c.decisionLog(),
        c.protocol(),
        c.shutdown(),
        replicationBind == null
            ? c.replication()
            : c.replication().withBindAddress(replicationBind),
        c.flowControl(),
        c.recording(),
        c.shadow(),
        c.summary(),
        c.prefixIndex());
  }

  /** The pools with their endpoints on consecutive ports from {@code base}, in file order. */
  static List<PoolConfig> shifted(List<PoolConfig> pools, int base) {
    List<PoolConfig> out = new ArrayList<>();
    int next = base;
    for (PoolConfig p : pools) {
      List<PoolConfig.EndpointConfig> endpoints = new ArrayList<>();
      for (PoolConfig.EndpointConfig e : p.endpoints()) {
        String address = e.address();
        String host = address.substring(0, address.lastIndexOf(':'));
        endpoints.add(new PoolConfig.EndpointConfig(host + ":" + next++, e.labels()));
      }
      out.add(p.withEndpoints(endpoints));
    }
    return out;
  }
}
