package dev.pointsman.bench.routing.scenario;

import dev.pointsman.sim.engine.GpuProfiles;

/**
 * Identical pods of a fleet.
 *
 * @param gpu GPU profile name (a simulator profile, e.g. {@code H100-80})
 * @param count how many pods
 * @param maxLoras LoRA adapter GPU slots per pod (default 4)
 * @param maxCpuLoras adapters kept in the CPU cache (default 16, at least maxLoras)
 * @param shape model shape the pods serve (default {@code llama-3-8b}); with {@code gpu} it picks
 *     the simulator profile, e.g. {@code {gpu: H100-80, shape: llama-3-70b}} is a 4-GPU pod
 */
public record PodGroup(
    String gpu, Integer count, Integer maxLoras, Integer maxCpuLoras, String shape) {
  public PodGroup {
    if (gpu == null || gpu.isBlank()) {
      throw new IllegalArgumentException("gpu: '" + gpu + "' (expected a GPU profile name)");
    }
    count = Check.atLeast("count", count, 1, 1);
    maxLoras = Check.atLeast("maxLoras", maxLoras, 4, 0);
    maxCpuLoras = Check.atLeast("maxCpuLoras", maxCpuLoras, Math.max(16, maxLoras), maxLoras);
    shape = shape == null ? GpuProfiles.DEFAULT_MODEL : shape;
  }
}
