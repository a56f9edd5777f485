package dev.pointsman.picker.flowcontrol;

/**
 * How loaded the pools a request would go to are, now.
 *
 * @param hasEndpoints whether any endpoint could serve it (else a refusal is 503, not 429)
 * @param saturated whether every endpoint is over the pool's saturation thresholds
 * @param bestTtftSeconds the lowest TTFT predicted for it on any endpoint, or NaN when unknown
 * @param load the least loaded endpoint's queue as a fraction of the saturation threshold: 0 when
 *     an endpoint is idle, 1 (or more) when every endpoint is at a threshold
 */
public record Pressure(
    boolean hasEndpoints, boolean saturated, double bestTtftSeconds, double load) {
  /** Room now, TTFT unknown. */
  public static final Pressure FREE = new Pressure(true, false, Double.NaN);

  public Pressure {
    if (!(load >= 0)) {
      throw new IllegalArgumentException("load: " + load + " (expected >= 0)");
    }
  }

  /** Without a finer measure of load: idle unless saturated. */
  public Pressure(boolean hasEndpoints, boolean saturated, double bestTtftSeconds) {
    this(hasEndpoints, saturated, bestTtftSeconds, saturated ? 1 : 0);
  }

  /** The predicted TTFT in nanoseconds, 0 when unknown. */
  public long bestTtftNanos() {
    return Double.isNaN(bestTtftSeconds) || bestTtftSeconds < 0
        ? 0
        : (long) Math.min(Long.MAX_VALUE / 4, bestTtftSeconds * 1e9);
  }
}
