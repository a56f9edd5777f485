package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.GpuProfiles;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pointsman simulate --config FLEET.yaml}: starts the fleet's simulated model servers,
 * prints each pod's URL and serves until interrupted (Ctrl-C).
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = "Run simulated vLLM/SGLang model servers (OpenAI API, /metrics) in real time.")
public final class SimulateCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, description = "Fleet YAML file.")
  Path config;

  @Override
  public Integer call() throws InterruptedException {
    FleetConfig fleetConfig;
    GpuProfiles profiles;
    try {
      fleetConfig = FleetConfig.load(config);
      profiles = fleetConfig.profiles(config.toAbsolutePath().getParent());
    } catch (IllegalArgumentException e) {
      System.err.println("simulate: " + e.getMessage());
      return 2;
    }
    CountDownLatch stop = new CountDownLatch(1);
    try (Fleet fleet = Fleet.start(fleetConfig, profiles)) {
      List<String> names = fleet.names();
      List<String> urls = fleet.urls();
      for (int i = 0; i < names.size(); i++) {
        System.out.println(names.get(i) + " " + urls.get(i));
      }
      System.out.flush();
      Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "simulate-stop"));
      stop.await();
    }
    return 0;
  }
}
