package dev.pointsman.picker.scheduling;

import dev.pointsman.picker.scheduling.prior.SpeedPriors;

/**
 * How fast an endpoint is, for predicting latency: a roofline of its GPU and model. GPU generations
 * differ 5–15× in prefill speed, which is what makes a heterogeneous fleet need a cost in seconds
 * rather than in requests. The built-in priors come from spec sheets ({@link SpeedPriors}); the
 * learned latency model corrects them from observed first tokens.
 *
 * @param name what the prior was derived from (a GPU, or {@code neutral})
 * @param prefillTokensPerSecond tokens per second the engine computes (prefill throughput)
 * @param decodeStepSeconds time of one engine step at batch 1: reading the weights
 * @param tokenBudget tokens one engine step can process
 * @param kvSecondsPerToken what each token of context in the batch adds to a step (reading its KV
 *     cache)
 */
public record SpeedProfile(
    String name,
    double prefillTokensPerSecond,
    double decodeStepSeconds,
    int tokenBudget,
    double kvSecondsPerToken) {

  /** The short label that names an endpoint's GPU type (e.g. {@code H100-80}). */
  public static final String GPU_LABEL = "gpu";

  /** The label that overrides prefill throughput (tokens per second). */
  public static final String PREFILL_LABEL = "pointsman.dev/prefill-tokens-per-second";

  public SpeedProfile {
    if (!(prefillTokensPerSecond > 0) || Double.isInfinite(prefillTokensPerSecond)) {
      throw new IllegalArgumentException(
          "prefillTokensPerSecond: " + prefillTokensPerSecond + " (expected > 0)");
    }
    if (!(decodeStepSeconds > 0) || Double.isInfinite(decodeStepSeconds)) {
      throw new IllegalArgumentException(
          "decodeStepSeconds: " + decodeStepSeconds + " (expected > 0)");
    }
    if (tokenBudget < 1) {
      throw new IllegalArgumentException("tokenBudget: " + tokenBudget + " (expected >= 1)");
    }
    if (!(kvSecondsPerToken >= 0) || Double.isInfinite(kvSecondsPerToken)) {
      throw new IllegalArgumentException(
          "kvSecondsPerToken: " + kvSecondsPerToken + " (expected a finite number >= 0)");
    }
  }

  /**
   * Seconds of one engine step that computes {@code tokens} (prompt tokens plus one per decoding
   * sequence) while its batch holds {@code contextTokens} of KV cache: a step is as long as the
   * larger of what it reads (the weights and the KV cache) and what it computes.
   */
  public double stepSeconds(double tokens, double contextTokens) {
    double memory = decodeStepSeconds + kvSecondsPerToken * Math.max(0, contextTokens);
    return Math.max(memory, Math.max(0, tokens) / prefillTokensPerSecond);
  }

  /**
   * Analytic seconds per output token for a request joining a batch of {@code batch} sequences that
   * hold {@code contextTokens} of KV cache, while {@code prefillTokens} of other prompts wait to be
   * prefilled. Steps with only decodes compute one token per sequence; while prompts are chunked
   * into the same steps (the rest of the token budget each), steps compute a full budget. Those
   * steps are averaged over the request's {@code outputTokens}.
   */
  public double tpotSeconds(
      int batch, double contextTokens, double prefillTokens, int outputTokens) {
    int seqs = Math.max(1, batch);
    double decodeOnly = stepSeconds(seqs, contextTokens);
    double chunk = Math.max(1, tokenBudget - seqs);
    double withPrefill = stepSeconds(seqs + chunk, contextTokens);
    double prefillSteps = Math.max(0, prefillTokens) / chunk;
    double share = Math.min(1.0, prefillSteps / Math.max(1, outputTokens));
    return share * withPrefill + (1 - share) * decodeOnly;
  }

  /** The built-in prior of an endpoint alone (no pool to take a neutral median from). */
  public static SpeedProfile of(Endpoint endpoint) {
    return SpeedPriors.builtIn().of(endpoint);
  }
}
