package dev.pointsman.picker.flowcontrol;

/**
 * How loaded the pools a request would go to are, now.
 *
 * @param hasEndpoints whether any endpoint could serve it (else a refusal is 503, not 429)
 * @param saturated whether every endpoint is over the pool's saturation thresholds
 * @param bestTtftSeconds the lowest TTFT predicted for it on any endpoint, or NaN when unknown
 */
public record Pressure(boolean hasEndpoints, boolean saturated, double bestTtftSeconds) {
  /** Room now, TTFT unknown. */
  public static final Pressure FREE = new Pressure(true, false, Double.NaN);

  /** The predicted TTFT in nanoseconds, 0 when unknown. */
  public long bestTtftNanos() {
    return Double.isNaN(bestTtftSeconds) || bestTtftSeconds < 0
        ? 0
        : (long) Math.min(Long.MAX_VALUE / 4, bestTtftSeconds * 1e9);
  }
}
