package dev.pointsman.sim.engine;

import java.util.List;

/**
 * Achieved over peak, observed in a fit of measured linear-operation times: {@code memory} = weight
 * bytes ÷ (bandwidth × flat time), {@code compute} = 2 × weights (FLOPs per token) ÷ (peak FLOP/s ×
 * time per token), and the line's intercept as a share of the flat time.
 *
 * @param memory achieved share of peak memory bandwidth
 * @param compute achieved share of peak BF16 FLOP/s
 * @param interceptRatio {@code interceptMs / floorMs}
 */
public record Efficiency(double memory, double compute, double interceptRatio) {

  /** What {@code fit} of {@code shape} on {@code gpu} achieved. */
  public static Efficiency of(LinearFit fit, GpuSpec gpu, ModelShape shape) {
    double params = shape.linearParams() / fit.tensorParallel();
    double memory = params * ModelShape.BYTES / (gpu.bytesPerSecond() * fit.floorMs() / 1000);
    double compute = 2 * params / (gpu.flopsPerSecond() * fit.msPerToken() / 1000);
    return new Efficiency(memory, compute, fit.interceptMs() / fit.floorMs());
  }

  /** The mean of {@code all}. */
  public static Efficiency mean(List<Efficiency> all) {
    if (all.isEmpty()) {
      throw new IllegalArgumentException(
          "fits: [] (expected at least one fit to take efficiency from)");
    }
    double m = 0;
    double c = 0;
    double r = 0;
    for (Efficiency e : all) {
      m += e.memory;
      c += e.compute;
      r += e.interceptRatio;
    }
    return new Efficiency(m / all.size(), c / all.size(), r / all.size());
  }
}
