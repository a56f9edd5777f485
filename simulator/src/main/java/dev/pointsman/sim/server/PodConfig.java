package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.GpuProfiles;
import java.util.List;

/**
 * One simulated model server in a fleet file.
 *
 * @param name pod name, returned in {@code x-pointsman-served-by}
 * @param gpu GPU profile name
 * @param model served base model name
 * @param host address to bind, default 127.0.0.1
 * @param port port, 0 for an ephemeral one
 * @param maxLoras GPU adapter slots, default 4
 * @param maxCpuLoras CPU adapter cache, default 16
 * @param adapters LoRA adapters available at start
 * @param engine the engine imitated (metric names, labels, paths): {@code vllm} (default), {@code
 *     sglang}, {@code trtllm} (trtllm-serve) or {@code triton-tensorrt-llm} (Triton's TensorRT-LLM
 *     backend)
 * @param faults injected faults, default none
 * @param engineOptions how the engine is deployed (data/tensor parallelism, priorities, release)
 * @param shape model shape of the profile, default {@link GpuProfiles#DEFAULT_MODEL}; with {@code
 *     gpu} it selects the profile (e.g. {@code H100-80} + {@code llama-3-70b}: a 4-GPU pod)
 */
public record PodConfig(
    String name,
    String gpu,
    String model,
    String host,
    Integer port,
    Integer maxLoras,
    Integer maxCpuLoras,
    List<String> adapters,
    String engine,
    FaultConfig faults,
    EngineOptions engineOptions,
    String shape) {

  /** The engines the simulator imitates. */
  public static final List<String> ENGINES =
      List.of("vllm", "sglang", "trtllm", "triton-tensorrt-llm");

  /** Applies defaults and validates what does not need the profile list. */
  public PodConfig {
    require(name, "name");
    require(gpu, "gpu");
    model = model == null ? "meta-llama/Llama-3.1-8B-Instruct" : model;
    host = host == null ? "127.0.0.1" : host;
    port = port == null ? 0 : port;
    maxLoras = maxLoras == null ? 4 : maxLoras;
    maxCpuLoras = maxCpuLoras == null ? Math.max(16, maxLoras) : maxCpuLoras;
    adapters = adapters == null ? List.of() : List.copyOf(adapters);
    engine = engine == null ? "vllm" : engine;
    faults = faults == null ? FaultConfig.NONE : faults;
    engineOptions = engineOptions == null ? EngineOptions.NONE : engineOptions;
    shape = shape == null ? GpuProfiles.DEFAULT_MODEL : shape;
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port: " + port + " (expected 0..65535)");
    }
    if (maxLoras < 0 || maxCpuLoras < maxLoras) {
      throw new IllegalArgumentException(
          "maxLoras/maxCpuLoras: "
              + maxLoras
              + "/"
              + maxCpuLoras
              + " (expected 0 <= maxLoras <= maxCpuLoras)");
    }
    if (!ENGINES.contains(engine)) {
      throw new IllegalArgumentException(
          "engine: " + engine + " (expected one of " + ENGINES + ")");
    }
    engineOptions.checkFor(engine);
  }

  /** A pod with the default engine options and model shape. */
  public PodConfig(
      String name,
      String gpu,
      String model,
      String host,
      Integer port,
      Integer maxLoras,
      Integer maxCpuLoras,
      List<String> adapters,
      String engine,
      FaultConfig faults) {
    this(name, gpu, model, host, port, maxLoras, maxCpuLoras, adapters, engine, faults, null);
  }

  /** A pod of the default model shape. */
  public PodConfig(
      String name,
      String gpu,
      String model,
      String host,
      Integer port,
      Integer maxLoras,
      Integer maxCpuLoras,
      List<String> adapters,
      String engine,
      FaultConfig faults,
      EngineOptions engineOptions) {
    this(
        name,
        gpu,
        model,
        host,
        port,
        maxLoras,
        maxCpuLoras,
        adapters,
        engine,
        faults,
        engineOptions,
        null);
  }

  /** A pod with defaults for everything but its name and GPU. */
  public static PodConfig of(String name, String gpu) {
    return new PodConfig(name, gpu, null, null, null, null, null, null, null, null);
  }

  /** A copy with other adapters. */
  public PodConfig withAdapters(List<String> list) {
    return new PodConfig(
        name,
        gpu,
        model,
        host,
        port,
        maxLoras,
        maxCpuLoras,
        list,
        engine,
        faults,
        engineOptions,
        shape);
  }

  /** A copy on another port. */
  public PodConfig withPort(int newPort) {
    return new PodConfig(
        name,
        gpu,
        model,
        host,
        newPort,
        maxLoras,
        maxCpuLoras,
        adapters,
        engine,
        faults,
        engineOptions,
        shape);
  }

  /** A copy imitating another engine, with default options. */
  public PodConfig withEngine(String flavor) {
    return withEngine(flavor, EngineOptions.NONE);
  }

  /** A copy imitating another engine, deployed as {@code options} say. */
  public PodConfig withEngine(String flavor, EngineOptions options) {
    return new PodConfig(
        name,
        gpu,
        model,
        host,
        port,
        maxLoras,
        maxCpuLoras,
        adapters,
        flavor,
        faults,
        options,
        shape);
  }

  /** A copy serving another model shape. */
  public PodConfig withShape(String modelShape) {
    return new PodConfig(
        name,
        gpu,
        model,
        host,
        port,
        maxLoras,
        maxCpuLoras,
        adapters,
        engine,
        faults,
        engineOptions,
        modelShape);
  }

  private static void require(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + ": '" + value + "' (expected a non-blank value)");
    }
  }
}
