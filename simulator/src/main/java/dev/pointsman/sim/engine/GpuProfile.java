package dev.pointsman.sim.engine;

/**
 * Speed and capacity of one pod: a model shape served on a GPU type, possibly over a
 * tensor-parallel group of such GPUs. Built by {@link GpuProfiles} from spec sheets, model shapes
 * and fits to measured kernel times; the step-time model is {@link StepCosts#stepMs}.
 *
 * @param name GPU type, e.g. {@code H100-80}: the label such a pod carries
 * @param model model shape served, e.g. {@code llama-3-8b}
 * @param tensorParallel GPUs per pod
 * @param costs step-time constants
 * @param kvBlocks KV cache capacity in blocks
 * @param blockSize tokens per KV block
 * @param maxBatchedTokens per-step token budget
 * @param maxNumSeqs per-step sequence cap
 */
public record GpuProfile(
    String name,
    String model,
    int tensorParallel,
    StepCosts costs,
    int kvBlocks,
    int blockSize,
    int maxBatchedTokens,
    int maxNumSeqs) {

  /** Validates every field. */
  public GpuProfile {
    Check.name("name", name);
    Check.name("model", model);
    Check.positive("tensorParallel", tensorParallel);
    if (costs == null) {
      throw new IllegalArgumentException("costs: null (expected step-time constants)");
    }
    Check.positive("kvBlocks", kvBlocks);
    Check.positive("blockSize", blockSize);
    Check.positive("maxBatchedTokens", maxBatchedTokens);
    Check.positive("maxNumSeqs", maxNumSeqs);
  }

  /** {@code name/model}, unique in a {@link GpuProfiles}. */
  public String key() {
    return name + "/" + model;
  }

  /** Tokens per second of the linear operations in compute-bound steps (a speed ranking). */
  public double prefillTokensPerSecond() {
    return 1000.0 / costs.linearMsPerToken();
  }

  /** The shortest possible step: one sequence, one token, no context. */
  public double minStepMs() {
    return costs.stepMs(1, 0, 1, 0, 1, 1, 0);
  }

  /** KV capacity in tokens. */
  public long kvTokens() {
    return (long) kvBlocks * blockSize;
  }

  /** A copy with other capacity and batch limits (tests, small experiments). */
  public GpuProfile withLimits(String newName, int blocks, int batchedTokens, int numSeqs) {
    return new GpuProfile(
        newName, model, tensorParallel, costs, blocks, blockSize, batchedTokens, numSeqs);
  }
}
