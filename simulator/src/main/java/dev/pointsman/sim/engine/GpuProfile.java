package dev.pointsman.sim.engine;

/**
 * Speed and capacity of one GPU type serving a Llama-3-8B-class model; loaded as data from {@code
 * gpu-profiles.yaml}. The step time model is {@link #stepMs}.
 *
 * @param name profile name, e.g. {@code H100-80}
 * @param prefillTokensPerSecond compute-bound token rate {@code R_prefill}
 * @param decodeFloorMs weight-read time of one step {@code t_w}
 * @param kvMicrosPerContextToken KV read time per context token in the batch
 * @param kvBlocks KV cache capacity in blocks
 * @param blockSize tokens per KV block
 * @param maxBatchedTokens per-step token budget
 * @param maxNumSeqs per-step sequence cap
 * @param stepOverheadMs fixed scheduling overhead per step
 * @param perSeqMicros per-sequence overhead per step
 * @param loraStepFactor step slow-down per distinct adapter in the batch
 */
public record GpuProfile(
    String name,
    double prefillTokensPerSecond,
    double decodeFloorMs,
    double kvMicrosPerContextToken,
    int kvBlocks,
    int blockSize,
    int maxBatchedTokens,
    int maxNumSeqs,
    double stepOverheadMs,
    double perSeqMicros,
    double loraStepFactor) {

  /** Validates every field. */
  public GpuProfile {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: '" + name + "' (expected a non-blank name)");
    }
    positive("prefillTokensPerSecond", prefillTokensPerSecond);
    positive("decodeFloorMs", decodeFloorMs);
    nonNegative("kvMicrosPerContextToken", kvMicrosPerContextToken);
    positive("kvBlocks", kvBlocks);
    positive("blockSize", blockSize);
    positive("maxBatchedTokens", maxBatchedTokens);
    positive("maxNumSeqs", maxNumSeqs);
    nonNegative("stepOverheadMs", stepOverheadMs);
    nonNegative("perSeqMicros", perSeqMicros);
    nonNegative("loraStepFactor", loraStepFactor);
  }

  /**
   * Duration of one engine step: {@code overhead + max(t_w + kv·context, (prefill + decodes)/R) +
   * perSeq·batch}, times {@code 1 + loraStepFactor·distinctAdapters}.
   */
  public double stepMs(
      long prefillTokens, int decodeSeqs, long contextTokens, int batch, int distinctAdapters) {
    double memoryMs = decodeFloorMs + kvMicrosPerContextToken * contextTokens / 1000.0;
    double computeMs = (prefillTokens + decodeSeqs) * 1000.0 / prefillTokensPerSecond;
    double ms = stepOverheadMs + Math.max(memoryMs, computeMs) + perSeqMicros * batch / 1000.0;
    return ms * (1.0 + loraStepFactor * distinctAdapters);
  }

  /** KV capacity in tokens. */
  public long kvTokens() {
    return (long) kvBlocks * blockSize;
  }

  private static void positive(String field, double value) {
    if (!(value > 0)) {
      throw new IllegalArgumentException(field + ": " + value + " (expected > 0)");
    }
  }

  private static void nonNegative(String field, double value) {
    if (!(value >= 0)) {
      throw new IllegalArgumentException(field + ": " + value + " (expected >= 0)");
    }
  }
}
