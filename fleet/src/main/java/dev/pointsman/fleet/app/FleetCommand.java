package dev.pointsman.fleet.app;

import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.picker.app.CertificateFile;
import dev.pointsman.runtime.Shutdown;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pointsman fleet}: the fleet tier in front of several clusters' gateways. */
@Command(
    name = "fleet",
    mixinStandardHelpOptions = true,
    header = "Runs the fleet tier, which chooses a cluster per request.",
    description = {
      "Runs the fleet tier: an ext_proc service for the Envoy (or local gateway) in front of"
          + " several clusters' gateways. It reads each cluster's summary over mutual TLS and"
          + " sends each request to the cluster predicted to serve it within its TTFT objective at"
          + " the lowest cost, with prefix affinity and failover.",
      "",
      "Config keys (grpc, admin, extProc, regions, regionHeader, defaultRegion, sloTtftMillis,"
          + " sloHeader, spillAt, fallbacks, objectives, summaries, failover, clusters): docs/fleet.md."
    },
    footerHeading = "%nExample:%n",
    footer = {"  ./pointsman fleet --config examples/fleet-gateway.yaml"})
public final class FleetCommand implements Callable<Integer> {

  @Option(
      names = "--config",
      required = true,
      paramLabel = "FILE",
      description = "Fleet config file (see docs/fleet.md).")
  Path config;

  @Option(
      names = "--certificate-out",
      paramLabel = "FILE",
      description =
          "Where to write the ext_proc listener's self-signed certificate for the gateway in front"
              + " to trust (default .pointsman/fleet.pem with grpc.tls: self-signed).")
  Path certificateOut;

  @Option(
      names = "--replication-bind",
      paramLabel = "ADDR",
      description =
          "Overrides replication.bindAddress, the address the fleet replicas' cluster transport"
              + " binds and advertises (the Helm chart passes the pod's IP).")
  String replicationBind;

  @Override
  public Integer call() throws InterruptedException {
    FleetApp app;
    FleetConfig c;
    try {
      c = FleetConfig.load(config);
      if (replicationBind != null) {
        c = c.withReplicationBind(replicationBind);
      }
      app = new FleetApp(c);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      System.err.println("pointsman fleet: " + e.getMessage());
      return 2;
    }
    try {
      app.start();
    } catch (IllegalArgumentException | UncheckedIOException e) {
      System.err.println("pointsman fleet: " + e.getMessage());
      app.close();
      return 2;
    }
    Path written = null;
    try {
      Path file =
          certificateOut != null
              ? certificateOut
              : c.grpc().tls().equals("self-signed") ? Path.of(".pointsman", "fleet.pem") : null;
      if (file != null && app.certificatePem().isPresent()) {
        written = CertificateFile.write(file, app.certificatePem().get());
      }
    } catch (UncheckedIOException e) {
      System.err.println("pointsman fleet: " + e.getMessage());
      app.close();
      return 2;
    }
    new Shutdown(List.of(app), FleetApp.drain()).installHook();
    System.out.printf(
        "pointsman fleet: ext_proc on %s:%d (%s%s), admin on %s:%d, clusters %s%n",
        c.grpc().host(),
        app.grpcPort(),
        c.grpc().tls(),
        written == null ? "" : ", certificate in " + written,
        c.admin().host(),
        app.adminPort(),
        c.clusters().stream().map(k -> k.name()).toList());
    app.awaitTermination();
    return 0;
  }
}
