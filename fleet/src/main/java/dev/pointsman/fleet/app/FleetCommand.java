package dev.pointsman.fleet.app;

import dev.pointsman.fleet.config.FleetConfig;
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
          + " sloHeader, spillAt, objectives, summaries, failover, clusters): docs/fleet.md."
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

  @Override
  public Integer call() throws InterruptedException {
    FleetApp app;
    try {
      app = new FleetApp(FleetConfig.load(config));
    } catch (IllegalArgumentException | UncheckedIOException e) {
      System.err.println("pointsman fleet: " + e.getMessage());
      return 2;
    }
    app.start();
    new Shutdown(List.of(app), FleetApp.drain()).installHook();
    System.out.printf(
        "pointsman fleet: ext_proc on :%d, admin on :%d%n", app.grpcPort(), app.adminPort());
    app.awaitTermination();
    return 0;
  }
}
