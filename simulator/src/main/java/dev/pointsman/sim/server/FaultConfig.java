package dev.pointsman.sim.server;

/**
 * Faults injected into one pod; settable in the fleet file and at runtime ({@code POST
 * /admin/faults} with this record as JSON; omitted fields take their defaults, i.e. no fault).
 *
 * @param errorRate probability in [0, 1] that a completion request gets a 500
 * @param slowStartMs extra delay before a request reaches the engine (adds to TTFT)
 * @param hang if true, completion requests are accepted and never answered
 * @param disconnectAfterTokens if positive, a stream is cut (connection closed) after this many
 *     tokens
 * @param metrics {@code up}, {@code 503} (answer 503) or {@code close} (close the connection)
 * @param metricsDelayMs delay before answering {@code /metrics}
 */
public record FaultConfig(
    Double errorRate,
    Double slowStartMs,
    Boolean hang,
    Integer disconnectAfterTokens,
    String metrics,
    Double metricsDelayMs) {

  /** No faults. */
  public static final FaultConfig NONE = new FaultConfig(null, null, null, null, null, null);

  /** Applies defaults and validates. */
  public FaultConfig {
    errorRate = errorRate == null ? 0.0 : errorRate;
    slowStartMs = slowStartMs == null ? 0.0 : slowStartMs;
    hang = hang != null && hang;
    disconnectAfterTokens = disconnectAfterTokens == null ? 0 : disconnectAfterTokens;
    metrics = metrics == null ? "up" : metrics;
    metricsDelayMs = metricsDelayMs == null ? 0.0 : metricsDelayMs;
    if (!(errorRate >= 0 && errorRate <= 1)) {
      throw new IllegalArgumentException("errorRate: " + errorRate + " (expected 0..1)");
    }
    if (!(slowStartMs >= 0)) {
      throw new IllegalArgumentException("slowStartMs: " + slowStartMs + " (expected >= 0)");
    }
    if (disconnectAfterTokens < 0) {
      throw new IllegalArgumentException(
          "disconnectAfterTokens: " + disconnectAfterTokens + " (expected >= 0)");
    }
    if (!metrics.equals("up") && !metrics.equals("503") && !metrics.equals("close")) {
      throw new IllegalArgumentException(
          "metrics: " + metrics + " (expected one of [up, 503, close])");
    }
    if (!(metricsDelayMs >= 0)) {
      throw new IllegalArgumentException("metricsDelayMs: " + metricsDelayMs + " (expected >= 0)");
    }
  }
}
