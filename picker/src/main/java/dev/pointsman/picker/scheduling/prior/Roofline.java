package dev.pointsman.picker.scheduling.prior;

import dev.pointsman.picker.scheduling.SpeedProfile;

/**
 * A speed prior from first principles: a transformer's forward pass costs about {@code 2 × params}
 * FLOPs per token and reads every weight once per engine step, so on a GPU of known peak compute
 * and bandwidth
 *
 * <ul>
 *   <li>prefill throughput ≈ {@link #EFFICIENCY} × FLOP/s ÷ (2 × params) tokens per second;
 *   <li>the decode step floor ≈ weight bytes ÷ ({@link #EFFICIENCY} × bandwidth);
 *   <li>each token of context in the batch adds its KV-cache bytes ÷ ({@link #EFFICIENCY} ×
 *       bandwidth) to a step.
 * </ul>
 *
 * <p>Assumptions, stated rather than fitted: one generic efficiency for compute and bandwidth
 * alike; BF16 weights and KV cache (2 bytes a value); a Llama-like grouped-query attention shape
 * for the KV cache (8 KV heads of 128, layers growing as the cube root of the parameter count: 32
 * at 8B). The engine's per-step token budget is vLLM's default for its OpenAI server. What these
 * miss (a GPU's real efficiency, quantisation, overheads) the online fit learns from observed first
 * tokens.
 */
public final class Roofline {
  /**
   * The fraction of peak compute and bandwidth a serving engine sustains: one round, generic
   * figure, not fitted to any measurement here.
   */
  public static final double EFFICIENCY = 0.5;

  /** BF16: two bytes per weight and per KV-cache value. */
  static final double BYTES_PER_VALUE = 2;

  /** Grouped-query attention as in the Llama 3 family: 8 KV heads of 128 dimensions. */
  static final double KV_DIMENSIONS = 8 * 128;

  /** Layers of an 8B-parameter model of that family, scaled by the cube root of the size. */
  static final double LAYERS_AT_8B = 32;

  /**
   * vLLM's default {@code max_num_batched_tokens} for its OpenAI server: 8,192 on GPUs with at
   * least 70 GiB that are not A100s, 2,048 otherwise ({@code EngineArgs.get_batch_defaults}).
   */
  static final int LARGE_BUDGET = 8192;

  static final int SMALL_BUDGET = 2048;
  private static final double LARGE_BUDGET_MIN_BYTES = 70.0 * (1L << 30);

  private Roofline() {}

  /**
   * The prior for a model of {@code paramsBillions} on {@code gpus} GPUs of {@code spec} (tensor
   * parallel, taken as ideal).
   */
  public static SpeedProfile profile(GpuSpec spec, double paramsBillions, int gpus) {
    GpuSpec.positive("paramsBillions", paramsBillions);
    if (gpus < 1) {
      throw new IllegalArgumentException("gpus: " + gpus + " (expected >= 1)");
    }
    double params = paramsBillions * 1e9;
    double flops = EFFICIENCY * spec.bf16DenseTflops() * 1e12 * gpus;
    double bytesPerSecond = EFFICIENCY * spec.memoryBandwidthGBps() * 1e9 * gpus;
    double layers = LAYERS_AT_8B * Math.cbrt(paramsBillions / 8);
    double kvBytesPerToken = 2 * layers * KV_DIMENSIONS * BYTES_PER_VALUE; // keys and values
    return new SpeedProfile(
        spec.name(),
        flops / (2 * params),
        params * BYTES_PER_VALUE / bytesPerSecond,
        tokenBudget(spec),
        kvBytesPerToken / bytesPerSecond);
  }

  static int tokenBudget(GpuSpec spec) {
    boolean large =
        spec.memoryGB() * 1e9 >= LARGE_BUDGET_MIN_BYTES && !spec.name().startsWith("A100");
    return large ? LARGE_BUDGET : SMALL_BUDGET;
  }
}
