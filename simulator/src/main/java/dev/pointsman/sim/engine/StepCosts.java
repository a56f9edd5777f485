package dev.pointsman.sim.engine;

/**
 * The constants of the step-time model of one profile, per GPU of its tensor-parallel group, all in
 * milliseconds (derivations in {@code docs/simulator.md}). One step takes
 *
 * <pre>
 * overhead + perSeq·batch
 *   + max(linearFloor, linearIntercept + linearPerToken·tokens)          linear operations (fitted)
 *   + kv·decodeContext + max(pair·prefillPairs, kv·prefillContext)       attention
 *   + max(lmHeadFloor, lmHeadPerSeq·batch)                               LM head
 *   + allReduce + allReducePerToken·tokens                               tensor-parallel all-reduce
 * </pre>
 *
 * times {@code 1 + loraStepFactor·distinctAdapters}; {@code tokens} = prefill tokens + decodes.
 *
 * @param linearFloorMs flat part of the linear operations (weights read)
 * @param linearInterceptMs intercept of their compute-bound part
 * @param linearMsPerToken slope of their compute-bound part
 * @param attentionMsPerPair prefill attention per (query token, attended key) pair
 * @param kvMsPerToken KV cache read per context token
 * @param lmHeadFloorMs LM head weight read
 * @param lmHeadMsPerSeq LM head compute per sampled sequence
 * @param allReduceMs fixed all-reduce latency per step (0 without tensor parallelism)
 * @param allReduceMsPerToken all-reduce transfer per token in the step
 * @param stepOverheadMs fixed engine overhead per step
 * @param perSeqMs engine overhead per scheduled sequence
 * @param loraStepFactor step slow-down per distinct adapter in the batch
 */
public record StepCosts(
    double linearFloorMs,
    double linearInterceptMs,
    double linearMsPerToken,
    double attentionMsPerPair,
    double kvMsPerToken,
    double lmHeadFloorMs,
    double lmHeadMsPerSeq,
    double allReduceMs,
    double allReduceMsPerToken,
    double stepOverheadMs,
    double perSeqMs,
    double loraStepFactor) {

  /** Validates every field. */
  public StepCosts {
    Check.positive("linearFloorMs", linearFloorMs);
    Check.nonNegative("linearInterceptMs", linearInterceptMs);
    Check.positive("linearMsPerToken", linearMsPerToken);
    Check.nonNegative("attentionMsPerPair", attentionMsPerPair);
    Check.nonNegative("kvMsPerToken", kvMsPerToken);
    Check.nonNegative("lmHeadFloorMs", lmHeadFloorMs);
    Check.nonNegative("lmHeadMsPerSeq", lmHeadMsPerSeq);
    Check.nonNegative("allReduceMs", allReduceMs);
    Check.nonNegative("allReduceMsPerToken", allReduceMsPerToken);
    Check.nonNegative("stepOverheadMs", stepOverheadMs);
    Check.nonNegative("perSeqMs", perSeqMs);
    Check.nonNegative("loraStepFactor", loraStepFactor);
  }

  /** The linear operations' time for {@code tokens} tokens. */
  public double linearMs(long tokens) {
    return Math.max(linearFloorMs, linearInterceptMs + linearMsPerToken * tokens);
  }

  /**
   * One step's duration.
   *
   * @param prefillTokens prompt tokens computed in the step
   * @param decodeSeqs sequences decoding one token
   * @param contextTokens KV context of every scheduled sequence after the step
   * @param decodeContextTokens the part of {@code contextTokens} that belongs to decodes
   * @param prefillPairs sum over prefill tokens of the keys each attends to (causal)
   * @param batch scheduled sequences
   * @param distinctAdapters distinct LoRA adapters in the batch
   */
  public double stepMs(
      long prefillTokens,
      int decodeSeqs,
      long contextTokens,
      long decodeContextTokens,
      long prefillPairs,
      int batch,
      int distinctAdapters) {
    long tokens = prefillTokens + decodeSeqs;
    double attention =
        kvMsPerToken * decodeContextTokens
            + Math.max(
                attentionMsPerPair * prefillPairs,
                kvMsPerToken * (contextTokens - decodeContextTokens));
    double lmHead = Math.max(lmHeadFloorMs, lmHeadMsPerSeq * batch);
    double allReduce = allReduceMs + allReduceMsPerToken * tokens;
    double ms =
        stepOverheadMs + perSeqMs * batch + linearMs(tokens) + attention + lmHead + allReduce;
    return ms * (1.0 + loraStepFactor * distinctAdapters);
  }
}
