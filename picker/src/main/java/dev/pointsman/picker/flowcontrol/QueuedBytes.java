package dev.pointsman.picker.flowcontrol;

/**
 * The request-body bytes waiting in every flow-control queue that shares this, against one bound
 * for them all: the memory the picker gives held bodies, however many groups of pools queue. Not
 * thread-safe: the queues' owner holds one lock over all of them ({@code FlowGate}).
 */
public final class QueuedBytes {
  private final long max;
  private long bytes;

  /**
   * @param max body bytes that may wait at once in all the queues sharing this
   */
  public QueuedBytes(long max) {
    if (max < 1) {
      throw new IllegalArgumentException("max: " + max + " (expected >= 1)");
    }
    this.max = max;
  }

  /** No bound beyond each queue's own. */
  public static QueuedBytes unbounded() {
    return new QueuedBytes(Long.MAX_VALUE);
  }

  /** The bound. */
  public long max() {
    return max;
  }

  /** Body bytes waiting now, in all the queues. */
  public long bytes() {
    return bytes;
  }

  /** Whether {@code more} bytes (less, if negative) still fit. */
  boolean fits(long more) {
    return bytes + more <= max;
  }

  void add(long n) {
    bytes += n;
  }
}
