package dev.pointsman.picker.scheduling;

import java.util.List;

/**
 * When a pool counts as saturated: no available endpoint has both its queue below {@code
 * queueThreshold} and its KV-cache use below {@code kvThreshold}. Only sheddable requests are shed.
 *
 * @param queueThreshold waiting requests (scraped plus pending) at which an endpoint is full
 * @param kvThreshold KV-cache use at which an endpoint is full
 * @param retryAfterSeconds back-off suggested to shed clients
 */
public record Saturation(int queueThreshold, double kvThreshold, int retryAfterSeconds) {
  public static final Saturation DEFAULT = new Saturation(5, 0.8, 1);

  public Saturation {
    if (queueThreshold < 1) {
      throw new IllegalArgumentException(
          "saturation.queueThreshold: " + queueThreshold + " (expected >= 1)");
    }
    if (!(kvThreshold > 0 && kvThreshold <= 1)) {
      throw new IllegalArgumentException(
          "saturation.kvThreshold: " + kvThreshold + " (expected in (0, 1])");
    }
    if (retryAfterSeconds < 1) {
      throw new IllegalArgumentException(
          "saturation.retryAfterSeconds: " + retryAfterSeconds + " (expected >= 1)");
    }
  }

  public boolean saturated(List<Candidate> candidates) {
    for (Candidate c : candidates) {
      if (c.waiting() < queueThreshold && c.metrics().kvUsageOrZero() < kvThreshold) {
        return false;
      }
    }
    return true;
  }

  /**
   * The least loaded endpoint's queue as a fraction of {@code queueThreshold}: 0 when one is idle,
   * 1 or more when every endpoint is full (an endpoint over the KV threshold counts as full).
   */
  public double load(List<Candidate> candidates) {
    double least = 1;
    for (Candidate c : candidates) {
      if (c.metrics().kvUsageOrZero() < kvThreshold) {
        least = Math.min(least, c.waiting() / (double) queueThreshold);
      }
    }
    return Math.max(0, least);
  }
}
