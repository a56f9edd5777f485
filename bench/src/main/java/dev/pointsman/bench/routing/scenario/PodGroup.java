package dev.pointsman.bench.routing.scenario;

import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.KvOffload;

/**
 * Identical pods of a fleet.
 *
 * @param gpu GPU profile name (a simulator profile, e.g. {@code H100-80})
 * @param count how many pods
 * @param maxLoras LoRA adapter GPU slots per pod (default 4)
 * @param maxCpuLoras adapters kept in the CPU cache (default 16, at least maxLoras)
 * @param shape model shape the pods serve (default {@code llama-3-8b}); with {@code gpu} it picks
 *     the simulator profile, e.g. {@code {gpu: H100-80, shape: llama-3-70b}} is a 4-GPU pod
 * @param kvOffloadGiB CPU memory per pod for the KV cache's offloaded blocks, as vLLM's {@code
 *     --kv-offloading-size}; default 0, no offloading
 * @param kvOffloadGBps host-to-device bandwidth per GPU that loads offloaded blocks back, in GB/s;
 *     default {@link KvOffload#DEFAULT_GB_PER_SECOND}
 */
public record PodGroup(
    String gpu,
    Integer count,
    Integer maxLoras,
    Integer maxCpuLoras,
    String shape,
    Double kvOffloadGiB,
    Double kvOffloadGBps) {

  public PodGroup {
    if (gpu == null || gpu.isBlank()) {
      throw new IllegalArgumentException("gpu: '" + gpu + "' (expected a GPU profile name)");
    }
    count = Check.atLeast("count", count, 1, 1);
    maxLoras = Check.atLeast("maxLoras", maxLoras, 4, 0);
    maxCpuLoras = Check.atLeast("maxCpuLoras", maxCpuLoras, Math.max(16, maxLoras), maxLoras);
    shape = shape == null ? GpuProfiles.DEFAULT_MODEL : shape;
    kvOffloadGiB = Check.nonNegative("kvOffloadGiB", kvOffloadGiB, 0);
    kvOffloadGBps = Check.positive("kvOffloadGBps", kvOffloadGBps, KvOffload.DEFAULT_GB_PER_SECOND);
  }

  /** Pods without offloading. */
  public PodGroup(String gpu, Integer count, Integer maxLoras, Integer maxCpuLoras, String shape) {
    this(gpu, count, maxLoras, maxCpuLoras, shape, null, null);
  }
}
