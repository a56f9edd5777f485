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
    header = "Runs simulated vLLM, SGLang or TensorRT-LLM model servers in real time.",
    description = {
      "Runs simulated vLLM, SGLang or TensorRT-LLM model servers in real time, one HTTP port"
          + " per pod, on 127.0.0.1 unless a pod's host says otherwise. Each pod serves the OpenAI"
          + " API (/v1/chat/completions, /v1/completions, /v1/responses, /v1/embeddings,"
          + " /v1/models) and the metrics its engine serves, with the engine's names and labels"
          + " (trtllm-serve: JSON at /metrics, Prometheus text at /prometheus/metrics), and prints"
          + " its URL at start.",
      "",
      "Fleet file keys: seed, gpuProfiles, and pods[] with name, gpu, model, host, port,"
          + " maxLoras, maxCpuLoras, adapters, engine (vllm, sglang, trtllm, triton-tensorrt-llm),"
          + " engineOptions, faults (see examples/fleet.yaml, docs/simulator.md for the engines and"
          + " docs/benchmarks.md for the GPU profiles)."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  ./pointsman simulate --config examples/fleet.yaml",
      "  ./pointsman simulate --config examples/fleet.yaml --port-base 18001"
    })
public final class SimulateCommand implements Callable<Integer> {
  @Option(
      names = "--config",
      required = true,
      paramLabel = "FILE",
      description = "Fleet YAML file.")
  Path config;

  @Option(
      names = "--port-base",
      paramLabel = "PORT",
      description =
          "Puts the pods on PORT, PORT+1, ... in file order instead of their configured ports"
              + " (0: ephemeral ports).")
  Integer portBase;

  /** The fleet the flags describe: the file, moved by {@code --port-base}. */
  public FleetConfig fleetConfig() {
    FleetConfig file = FleetConfig.load(config);
    return portBase == null ? file : file.withPortBase(portBase);
  }

  @Override
  public Integer call() throws InterruptedException {
    FleetConfig fleetConfig;
    GpuProfiles profiles;
    try {
      fleetConfig = fleetConfig();
      profiles = fleetConfig.profiles(config.toAbsolutePath().getParent());
    } catch (IllegalArgumentException e) {
      System.err.println("pointsman simulate: " + e.getMessage());
      return 2;
    }
    CountDownLatch stop = new CountDownLatch(1);
    Fleet started;
    try {
      started = Fleet.start(fleetConfig, profiles);
    } catch (Exception e) { // Netty rethrows the BindException undeclared
      if (!(e instanceof java.net.BindException)) {
        throw e;
      }
      System.err.println(
          "pointsman simulate: a pod's port is taken ("
              + e.getMessage()
              + "); --port-base PORT moves the pods to PORT, PORT+1, ...");
      return 2;
    }
    try (Fleet fleet = started) {
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
