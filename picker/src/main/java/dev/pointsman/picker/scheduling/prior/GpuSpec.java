package dev.pointsman.picker.scheduling.prior;

/**
 * A GPU as its vendor's spec sheet states it: what an operator knows about a node without measuring
 * anything.
 *
 * @param name the product, e.g. {@code H100-SXM5-80GB}
 * @param bf16DenseTflops peak dense BF16 tensor throughput (the spec sheets' "with sparsity" figure
 *     halved), in TFLOPS
 * @param memoryBandwidthGBps peak memory bandwidth, in GB/s
 * @param memoryGB memory size, in GB
 */
public record GpuSpec(
    String name, double bf16DenseTflops, double memoryBandwidthGBps, double memoryGB) {
  public GpuSpec {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: '" + name + "' (expected a GPU name)");
    }
    positive("bf16DenseTflops", bf16DenseTflops);
    positive("memoryBandwidthGBps", memoryBandwidthGBps);
    positive("memoryGB", memoryGB);
  }

  /** This GPU with its throughput and bandwidth times {@code factor} (its memory unchanged). */
  public GpuSpec scaled(double factor) {
    positive("factor", factor);
    return new GpuSpec(name, bf16DenseTflops * factor, memoryBandwidthGBps * factor, memoryGB);
  }

  static void positive(String field, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(field + ": " + value + " (expected a finite number > 0)");
    }
  }
}
