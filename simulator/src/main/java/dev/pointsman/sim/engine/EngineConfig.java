package dev.pointsman.sim.engine;

import java.util.Objects;

/**
 * Configuration of one simulated model-server engine (one pod, one data-parallel rank).
 *
 * @param name pod name, reported in results
 * @param model base model name; part of every block hash
 * @param gpu speed and capacity profile
 * @param maxLoras GPU adapter slots ({@code --max-loras})
 * @param maxCpuLoras adapters kept in the CPU cache ({@code --max-cpu-loras}), at least maxLoras
 * @param loraLoadMs time to load an adapter that is in the CPU cache
 * @param loraColdLoadMs time to load an adapter from disk
 * @param apiOverheadMs time from arrival at the server to the engine queue
 * @param prefixCaching whether automatic prefix caching is on
 * @param offload the KV cache's CPU tier, {@link KvOffload#NONE} for none
 */
public record EngineConfig(
    String name,
    String model,
    GpuProfile gpu,
    int maxLoras,
    int maxCpuLoras,
    double loraLoadMs,
    double loraColdLoadMs,
    double apiOverheadMs,
    boolean prefixCaching,
    KvOffload offload) {

  /** Default adapter load time from the CPU cache. */
  public static final double DEFAULT_LORA_LOAD_MS = 250;

  /** Default adapter load time from disk. */
  public static final double DEFAULT_LORA_COLD_LOAD_MS = 1000;

  /** Default API overhead. */
  public static final double DEFAULT_API_OVERHEAD_MS = 10;

  /** Validates every field. */
  public EngineConfig {
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(offload, "offload");
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: '" + name + "' (expected a non-blank name)");
    }
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException("model: '" + model + "' (expected a non-blank name)");
    }
    if (maxLoras < 0) {
      throw new IllegalArgumentException("maxLoras: " + maxLoras + " (expected >= 0)");
    }
    if (maxCpuLoras < maxLoras) {
      throw new IllegalArgumentException(
          "maxCpuLoras: " + maxCpuLoras + " (expected >= maxLoras " + maxLoras + ")");
    }
    if (!(loraLoadMs >= 0) || !(loraColdLoadMs >= loraLoadMs)) {
      throw new IllegalArgumentException(
          "loraLoadMs/loraColdLoadMs: "
              + loraLoadMs
              + "/"
              + loraColdLoadMs
              + " (expected 0 <= loraLoadMs <= loraColdLoadMs)");
    }
    if (!(apiOverheadMs >= 0)) {
      throw new IllegalArgumentException("apiOverheadMs: " + apiOverheadMs + " (expected >= 0)");
    }
  }

  /** Defaults: 4 GPU adapter slots, 16 in the CPU cache, 250 ms / 1 s loads, 10 ms API overhead. */
  public static EngineConfig of(String name, String model, GpuProfile gpu) {
    return new EngineConfig(
        name,
        model,
        gpu,
        4,
        16,
        DEFAULT_LORA_LOAD_MS,
        DEFAULT_LORA_COLD_LOAD_MS,
        DEFAULT_API_OVERHEAD_MS,
        true,
        KvOffload.NONE);
  }

  /** A copy with other LoRA slot counts. */
  public EngineConfig withLoras(int gpuSlots, int cpuSlots) {
    return new EngineConfig(
        name,
        model,
        gpu,
        gpuSlots,
        cpuSlots,
        loraLoadMs,
        loraColdLoadMs,
        apiOverheadMs,
        prefixCaching,
        offload);
  }

  /** A copy with another API overhead. */
  public EngineConfig withApiOverheadMs(double ms) {
    return new EngineConfig(
        name,
        model,
        gpu,
        maxLoras,
        maxCpuLoras,
        loraLoadMs,
        loraColdLoadMs,
        ms,
        prefixCaching,
        offload);
  }

  /** A copy with prefix caching on or off. */
  public EngineConfig withPrefixCaching(boolean on) {
    return new EngineConfig(
        name,
        model,
        gpu,
        maxLoras,
        maxCpuLoras,
        loraLoadMs,
        loraColdLoadMs,
        apiOverheadMs,
        on,
        offload);
  }

  /** A copy with another CPU tier. */
  public EngineConfig withOffload(KvOffload tier) {
    return new EngineConfig(
        name,
        model,
        gpu,
        maxLoras,
        maxCpuLoras,
        loraLoadMs,
        loraColdLoadMs,
        apiOverheadMs,
        prefixCaching,
        tier);
  }
}
