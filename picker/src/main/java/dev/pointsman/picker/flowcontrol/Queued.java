package dev.pointsman.picker.flowcontrol;

import java.util.Comparator;
import java.util.Objects;

/**
 * One request in flow control with what the caller needs to dispatch it. Identity matters: it is
 * the handle that takes a request out of the queue.
 *
 * @param <T> the caller's payload
 */
public final class Queued<T> {
  /** Earliest deadline first, then first come first served. */
  static final Comparator<Queued<?>> ORDER =
      Comparator.<Queued<?>>comparingLong(q -> q.request.deadlineNanos())
          .thenComparingLong(q -> q.seq);

  private final FlowRequest request;
  private final T payload;
  private final long seq;
  private boolean waiting;

  Queued(FlowRequest request, T payload, long seq) {
    this.request = Objects.requireNonNull(request, "request");
    this.payload = payload;
    this.seq = seq;
  }

  public FlowRequest request() {
    return request;
  }

  public T payload() {
    return payload;
  }

  /** Whether it is in the queue now (read under the caller's lock). */
  public boolean waiting() {
    return waiting;
  }

  void waiting(boolean waiting) {
    this.waiting = waiting;
  }

  long seq() {
    return seq;
  }
}
