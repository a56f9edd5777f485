package dev.pointsman.sim.engine;

/**
 * A GPU type as its spec sheet states it (sources in {@code docs/simulator.md}).
 *
 * @param name GPU type, e.g. {@code H100-80}; also the label a pod of this type carries
 * @param bf16Tflops peak dense BF16 tensor throughput, TFLOP/s (without sparsity)
 * @param memoryTBps memory bandwidth, TB/s
 * @param memoryGiB memory size, GiB
 * @param linkGBps GPU-to-GPU link bandwidth per direction, GB/s (NVLink); 0 when the card has none
 */
public record GpuSpec(
    String name, double bf16Tflops, double memoryTBps, double memoryGiB, double linkGBps) {

  /** Validates every field. */
  public GpuSpec {
    Check.name("name", name);
    Check.positive("bf16Tflops", bf16Tflops);
    Check.positive("memoryTBps", memoryTBps);
    Check.positive("memoryGiB", memoryGiB);
    Check.nonNegative("linkGBps", linkGBps);
  }

  /** Peak FLOP/s. */
  double flopsPerSecond() {
    return bf16Tflops * 1e12;
  }

  /** Memory bytes/s. */
  double bytesPerSecond() {
    return memoryTBps * 1e12;
  }
}
