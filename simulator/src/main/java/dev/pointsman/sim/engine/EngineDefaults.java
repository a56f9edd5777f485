package dev.pointsman.sim.engine;

/**
 * Constants shared by every profile (sources in {@code docs/simulator.md}).
 *
 * @param memoryUtilization share of GPU memory the engine may use ({@code gpu_memory_utilization})
 * @param reserveGiB memory outside weights, activations and KV cache (CUDA context, cuBLAS
 *     workspace, CUDA graphs, communication buffers), GiB per GPU
 * @param allReduceLatencyUs latency of one small all-reduce within a tensor-parallel group
 * @param stepOverheadMs engine overhead per step not hidden behind GPU work
 * @param perSeqMicros engine overhead per scheduled sequence per step
 * @param loraStepFactor step slow-down per distinct adapter in the batch
 * @param blockSize tokens per KV block
 */
public record EngineDefaults(
    double memoryUtilization,
    double reserveGiB,
    double allReduceLatencyUs,
    double stepOverheadMs,
    double perSeqMicros,
    double loraStepFactor,
    int blockSize) {

  /** Validates every field. */
  public EngineDefaults {
    Check.fraction("memoryUtilization", memoryUtilization);
    Check.nonNegative("reserveGiB", reserveGiB);
    Check.nonNegative("allReduceLatencyUs", allReduceLatencyUs);
    Check.nonNegative("stepOverheadMs", stepOverheadMs);
    Check.nonNegative("perSeqMicros", perSeqMicros);
    Check.nonNegative("loraStepFactor", loraStepFactor);
    Check.positive("blockSize", blockSize);
  }
}
