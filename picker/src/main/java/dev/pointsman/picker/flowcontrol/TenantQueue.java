package dev.pointsman.picker.flowcontrol;

import java.util.PriorityQueue;

/**
 * One tenant's waiting requests in one band, earliest deadline first, then FCFS; not thread-safe.
 */
final class TenantQueue<T> {
  private final String tenant;
  private final PriorityQueue<Queued<T>> waiting = new PriorityQueue<>(Queued.ORDER);

  /** Tokens this tenant may still be served in the current rounds (deficit round robin). */
  long deficit;

  TenantQueue(String tenant) {
    this.tenant = tenant;
  }

  String tenant() {
    return tenant;
  }

  void add(Queued<T> q) {
    waiting.add(q);
  }

  Queued<T> peek() {
    return waiting.peek();
  }

  Queued<T> poll() {
    return waiting.poll();
  }

  boolean remove(Queued<T> q) {
    return waiting.remove(q);
  }

  boolean isEmpty() {
    return waiting.isEmpty();
  }

  Iterable<Queued<T>> all() {
    return waiting;
  }
}
