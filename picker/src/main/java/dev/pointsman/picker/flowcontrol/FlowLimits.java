package dev.pointsman.picker.flowcontrol;

/**
 * The bounds of one flow-control queue.
 *
 * @param maxQueued requests that may wait at once
 * @param maxQueuedBytes request-body bytes that may wait at once
 * @param ttlNanos how long one request may wait before it is refused
 * @param sheddableHeadroom the share of the pool's queue threshold kept for non-sheddable work: a
 *     sheddable request (priority below 0) goes to the pools only while their least loaded
 *     endpoint's {@link Pressure#load} is below {@code 1 - sheddableHeadroom}; 0 lets it go
 *     whenever the pools are not saturated
 * @param tenantShareLoad from this {@link Pressure#load} up, a tenant with more requests in flight
 *     than an equal share of all the in-flight work (among tenants in flight or waiting) waits even
 *     though the pools have room, while the others go; infinite: off (fairness only once requests
 *     wait)
 */
public record FlowLimits(
    int maxQueued,
    long maxQueuedBytes,
    long ttlNanos,
    double sheddableHeadroom,
    double tenantShareLoad) {
  /** No fairness before requests wait. */
  public static final double TENANT_SHARE_OFF = Double.POSITIVE_INFINITY;

  /** The headroom kept for non-sheddable work unless configured. */
  public static final double DEFAULT_SHEDDABLE_HEADROOM = 0.8;

  public FlowLimits {
    if (maxQueued < 1) {
      throw new IllegalArgumentException("maxQueued: " + maxQueued + " (expected >= 1)");
    }
    if (maxQueuedBytes < 1) {
      throw new IllegalArgumentException("maxQueuedBytes: " + maxQueuedBytes + " (expected >= 1)");
    }
    if (ttlNanos < 1) {
      throw new IllegalArgumentException("ttlNanos: " + ttlNanos + " (expected >= 1)");
    }
    if (!(sheddableHeadroom >= 0 && sheddableHeadroom < 1)) {
      throw new IllegalArgumentException(
          "sheddableHeadroom: " + sheddableHeadroom + " (expected in [0, 1))");
    }
    if (!(tenantShareLoad >= 0)) {
      throw new IllegalArgumentException(
          "tenantShareLoad: " + tenantShareLoad + " (expected >= 0, or infinite for off)");
    }
  }

  /** Bounds with {@code sheddableHeadroom} and no fairness before requests wait. */
  public FlowLimits(int maxQueued, long maxQueuedBytes, long ttlNanos, double sheddableHeadroom) {
    this(maxQueued, maxQueuedBytes, ttlNanos, sheddableHeadroom, TENANT_SHARE_OFF);
  }

  /** Bounds with the default headroom for non-sheddable work. */
  public FlowLimits(int maxQueued, long maxQueuedBytes, long ttlNanos) {
    this(maxQueued, maxQueuedBytes, ttlNanos, DEFAULT_SHEDDABLE_HEADROOM);
  }

  /** Whether a request of {@code priority} may go to pools under {@code p} now. */
  boolean room(int priority, Pressure p) {
    return priority < 0 ? p.load() < 1 - sheddableHeadroom && !p.saturated() : !p.saturated();
  }
}
