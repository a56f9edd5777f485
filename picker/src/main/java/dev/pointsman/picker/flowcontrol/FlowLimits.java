package dev.pointsman.picker.flowcontrol;

/**
 * The bounds of one flow-control queue.
 *
 * @param maxQueued requests that may wait at once
 * @param maxQueuedBytes request-body bytes that may wait at once
 * @param ttlNanos how long one request may wait before it is refused
 */
public record FlowLimits(int maxQueued, long maxQueuedBytes, long ttlNanos) {
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
  }
}
