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
    description = {
      "Runs the body-based router: an ext_proc service that reads each request's model and sets",
      "x-gateway-model-name and x-gateway-base-model-name for HTTPRoute header matching."
    })
public final class BodyRouterCommand implements Callable<Integer> {

  @Option(names = "--config", required = true, description = "Body router config file.")
  Path config;

  @Override
  public Integer call() throws InterruptedException {
    BodyRouterApp app;
    try {
      app = new BodyRouterApp(BodyRouterConfig.load(config));
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
