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
 */
public record FlowLimits(
    int maxQueued, long maxQueuedBytes, long ttlNanos, double sheddableHeadroom) {
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
