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
 */
public record SpeedProfile(
    String name, double prefillTokensPerSecond, double decodeStepSeconds, int tokenBudget) {

  /** The label that names an endpoint's GPU profile. */
  public static final String GPU_LABEL = "gpu";

  /** The label that overrides prefill throughput (tokens per second). */
  public static final String PREFILL_LABEL = "pointsman.dev/prefill-tokens-per-second";

  /** Used when an endpoint names no known GPU: an A100-80-class pod. */
  public static final SpeedProfile DEFAULT = new SpeedProfile("default", 9_000, 0.0102, 2048);

  private static final Map<String, SpeedProfile> KNOWN =
      Map.of(
          "h100-80", new SpeedProfile("H100-80", 28_000, 0.0064, 8192),
          "h100", new SpeedProfile("H100-80", 28_000, 0.0064, 8192),
          "a100-80", new SpeedProfile("A100-80", 9_000, 0.0102, 2048),
          "a100-40", new SpeedProfile("A100-40", 9_000, 0.0134, 2048),
          "a100", new SpeedProfile("A100-80", 9_000, 0.0102, 2048),
          "a10g", new SpeedProfile("A10G", 2_500, 0.035, 2048),
          "l4", new SpeedProfile("L4", 2_000, 0.070, 2048));

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
          base.name(), Double.parseDouble(prefill), base.decodeStepSeconds(), base.tokenBudget());
    } catch (IllegalArgumentException e) {
      return base;
    }
  }
}
