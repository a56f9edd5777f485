package dev.pointsman.body.router;

import dev.pointsman.runtime.Shutdown;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pointsman body-router}: the standalone body-based router. */
@Command(
    name = "body-router",
    mixinStandardHelpOptions = true,
    header = "Runs the body-based router, which sets model headers for HTTPRoute matching.",
    description = {
      "Runs the body-based router: an ext_proc service that reads each request's model and sets"
          + " x-gateway-model-name and x-gateway-base-model-name, for a gateway whose HTTPRoutes"
          + " match on those headers. Its listeners bind 127.0.0.1 unless grpc.host, admin.host"
          + " or --bind says otherwise.",
      "",
      "Config keys (grpc, admin, extProc, models, defaultModel, discovery,"
          + " discoveryIntervalSeconds): docs/body-router.md."
    },
    footerHeading = "%nExample:%n",
    footer = {"  ./pointsman body-router --config examples/body-router.yaml"})
public final class BodyRouterCommand implements Callable<Integer> {

  @Option(
      names = "--config",
      required = true,
      paramLabel = "FILE",
      description = "Body router config file (see docs/body-router.md).")
  Path config;

  @Option(
      names = "--bind",
      paramLabel = "ADDR",
      description = "Overrides grpc.host and admin.host, the address both listeners bind.")
  String bind;

  @Override
  public Integer call() throws InterruptedException {
    BodyRouterApp app;
    try {
      BodyRouterConfig c = BodyRouterConfig.load(config);
      app = new BodyRouterApp(bind == null ? c : c.withBind(bind));
    } catch (IllegalArgumentException | UncheckedIOException e) {
      System.err.println("pointsman body-router: " + e.getMessage());
      return 2;
    }
    app.start();
    new Shutdown(List.of(app), Duration.ofSeconds(35)).installHook();
    System.out.printf(
        "pointsman body-router: ext_proc on :%d, admin on :%d%n", app.grpcPort(), app.adminPort());
    app.awaitTermination();
    return 0;
  }
}
