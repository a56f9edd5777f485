package dev.pointsman.picker.scheduling;

import java.util.Locale;
import java.util.Map;

/**
 * How fast an endpoint's GPU is, for predicting latency. GPU generations differ 5–15× in prefill
 * speed, which is what makes a heterogeneous fleet need a cost in seconds rather than in requests.
 *
 * @param name profile name (e.g. {@code H100-80})
 * @param prefillTokensPerSecond prefill throughput
 * @param decodeStepSeconds time of one decode step at batch 1 (the weight-read floor)
 * @param tokenBudget tokens one engine step can process
 * @param kvSecondsPerToken what each token of context in the batch adds to a decode step (reading
 *     its KV cache)
 */
public record SpeedProfile(
    String name,
    double prefillTokensPerSecond,
    double decodeStepSeconds,
    int tokenBudget,
    double kvSecondsPerToken) {

  /** The label that names an endpoint's GPU profile. */
  public static final String GPU_LABEL = "gpu";

  /** The label that overrides prefill throughput (tokens per second). */
  public static final String PREFILL_LABEL = "pointsman.dev/prefill-tokens-per-second";

  /** Used when an endpoint names no known GPU: an A100-80-class pod. */
  public static final SpeedProfile DEFAULT =
      new SpeedProfile("default", 9_000, 0.0102, 2048, 0.084e-6);

  private static final Map<String, SpeedProfile> KNOWN =
      Map.of(
          "h100-80", new SpeedProfile("H100-80", 28_000, 0.0064, 8192, 0.051e-6),
          "h100", new SpeedProfile("H100-80", 28_000, 0.0064, 8192, 0.051e-6),
          "a100-80", new SpeedProfile("A100-80", 9_000, 0.0102, 2048, 0.084e-6),
          "a100-40", new SpeedProfile("A100-40", 9_000, 0.0134, 2048, 0.084e-6),
          "a100", new SpeedProfile("A100-80", 9_000, 0.0102, 2048, 0.084e-6),
          "a10g", new SpeedProfile("A10G", 2_500, 0.035, 2048, 0.28e-6),
          "l4", new SpeedProfile("L4", 2_000, 0.070, 2048, 0.57e-6));

  /**
   * A profile whose KV read cost is taken as an A100's, scaled by its decode floor (both are set by
   * memory bandwidth).
   */
  public SpeedProfile(
      String name, double prefillTokensPerSecond, double decodeStepSeconds, int tokenBudget) {
    this(
        name,
        prefillTokensPerSecond,
        decodeStepSeconds,
        tokenBudget,
        0.084e-6 * decodeStepSeconds / 0.0102);
  }

  public SpeedProfile {
    if (!(prefillTokensPerSecond > 0)) {
      throw new IllegalArgumentException(
          "prefillTokensPerSecond: " + prefillTokensPerSecond + " (expected > 0)");
    }
    if (!(decodeStepSeconds > 0)) {
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
   * Analytic seconds per output token for a request joining a batch of {@code batch} sequences that
   * hold {@code contextTokens} of KV cache, while {@code prefillTokens} of other prompts wait to be
   * prefilled. A decode step reads the weights and every sequence's KV cache; while prompts are
   * chunked into the same steps it is bound by compute instead. Those steps are averaged over the
   * request's {@code outputTokens}.
   */
  public double tpotSeconds(
      int batch, double contextTokens, double prefillTokens, int outputTokens) {
    int seqs = Math.max(1, batch);
    double memory = decodeStepSeconds + kvSecondsPerToken * Math.max(0, contextTokens);
    double decodeOnly = Math.max(memory, seqs / prefillTokensPerSecond);
    double chunk = Math.max(1, tokenBudget - seqs);
    double withPrefill = Math.max(memory, (seqs + chunk) / prefillTokensPerSecond);
    double prefillSteps = Math.max(0, prefillTokens) / chunk;
    double share = Math.min(1.0, prefillSteps / Math.max(1, outputTokens));
    return share * withPrefill + (1 - share) * decodeOnly;
  }

  /** The profile an endpoint's labels name, or {@link #DEFAULT}. */
  public static SpeedProfile of(Endpoint endpoint) {
    String gpu = endpoint.label(GPU_LABEL);
    SpeedProfile base =
        gpu == null ? DEFAULT : KNOWN.getOrDefault(gpu.toLowerCase(Locale.ROOT), DEFAULT);
    String prefill = endpoint.label(PREFILL_LABEL);
    if (prefill == null) {
      return base;
    }
    try {
      return new SpeedProfile(
          base.name(),
          Double.parseDouble(prefill),
          base.decodeStepSeconds(),
          base.tokenBudget(),
          base.kvSecondsPerToken());
    } catch (IllegalArgumentException e) {
      return base;
    }
  }
}
