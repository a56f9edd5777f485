package dev.pointsman.picker.flowcontrol;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Waiting requests in priority bands, strict between bands (the highest priority goes first),
 * tenants sharing a band fairly ({@link Band}). Counts requests and bytes. Not thread-safe.
 */
final class FlowQueue<T> {
  private final TreeMap<Integer, Band<T>> bands = new TreeMap<>(Comparator.reverseOrder());
  private final Map<String, Integer> waitingByTenant = new java.util.HashMap<>();
  private final QueuedBytes total;
  private int count;
  private long bytes;

  /**
   * @param total the bytes waiting in this queue and the others that share it
   */
  FlowQueue(QueuedBytes total) {
    this.total = total;
  }

  int size() {
    return count;
  }

  long bytes() {
    return bytes;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** Whether a request of {@code priority} or higher waits. */
  boolean waitsAtOrAbove(int priority) {
    return !bands.isEmpty() && bands.firstKey() >= priority;
  }

  void add(Queued<T> q) {
    bands.computeIfAbsent(q.request().priority(), Band::new).add(q);
    count++;
    bytes += q.request().bytes();
    total.add(q.request().bytes());
    waitingByTenant.merge(q.request().tenant(), 1, Integer::sum);
    q.waiting(true);
  }

  /** What goes next, as a hint (the highest band's first tenant's head). */
  Queued<T> peek() {
    Map.Entry<Integer, Band<T>> first = bands.firstEntry();
    return first == null ? null : first.getValue().peek();
  }

  Queued<T> poll() {
    return poll(tenant -> true);
  }

  /** What goes next among the tenants {@code eligible} accepts: highest band first; or null. */
  Queued<T> peek(Predicate<String> eligible) {
    for (Band<T> band : bands.values()) {
      Queued<T> q = band.peek(eligible);
      if (q != null) {
        return q;
      }
    }
    return null;
  }

  /** Takes what goes next among the tenants {@code eligible} accepts; null if none waits. */
  Queued<T> poll(Predicate<String> eligible) {
    for (Map.Entry<Integer, Band<T>> e : bands.entrySet()) {
      Queued<T> q = e.getValue().poll(eligible);
      if (q != null) {
        if (e.getValue().size() == 0) {
          bands.remove(e.getKey());
        }
        taken(q);
        return q;
      }
    }
    return null;
  }

  /** Whether {@code tenant} has a request waiting. */
  boolean waiting(String tenant) {
    return waitingByTenant.containsKey(tenant);
  }

  /** Tenants with a request waiting. */
  java.util.Set<String> tenants() {
    return waitingByTenant.keySet();
  }

  boolean remove(Queued<T> q) {
    Band<T> band = bands.get(q.request().priority());
    if (band == null || !band.remove(q)) {
      return false;
    }
    if (band.size() == 0) {
      bands.remove(band.priority());
    }
    taken(q);
    return true;
  }

  private void taken(Queued<T> q) {
    count--;
    bytes -= q.request().bytes();
    total.add(-q.request().bytes());
    waitingByTenant.computeIfPresent(q.request().tenant(), (k, n) -> n == 1 ? null : n - 1);
    q.waiting(false);
  }

  /**
   * The request to evict to make room for one of {@code priority}: the newest of the lowest band,
   * if that band is sheddable and below {@code priority}; else null.
   */
  Queued<T> victimFor(int priority) {
    Map.Entry<Integer, Band<T>> last = bands.lastEntry();
    if (last == null || last.getKey() >= 0 || last.getKey() >= priority) {
      return null;
    }
    return last.getValue().newest();
  }

  /** Requests and bytes of sheddable bands below {@code priority}: what eviction could free. */
  long[] evictable(int priority) {
    long n = 0;
    long b = 0;
    for (Band<T> band : bands.values()) {
      if (band.priority() < 0 && band.priority() < priority) {
        List<Queued<T>> all = new ArrayList<>();
        band.collect(all);
        n += all.size();
        for (Queued<T> q : all) {
          b += q.request().bytes();
        }
      }
    }
    return new long[] {n, b};
  }

  /** Every waiting request, highest band first. */
  List<Queued<T>> all() {
    List<Queued<T>> out = new ArrayList<>(count);
    for (Band<T> band : bands.values()) {
      band.collect(out);
    }
    return out;
  }
}
