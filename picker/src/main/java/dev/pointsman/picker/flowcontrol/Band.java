package dev.pointsman.picker.flowcontrol;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The waiting requests of one priority, shared between tenants by deficit round robin weighted by
 * tokens: every backlogged tenant earns the same tokens per round and spends them on its requests'
 * estimated tokens, so a tenant sending more or larger requests gets no more tokens served than
 * another backlogged one. Rounds in which nobody could afford its next request are added at once.
 * Not thread-safe.
 */
final class Band<T> {
  /** Tokens a backlogged tenant earns per round. */
  static final long QUANTUM = 256;

  private final int priority;
  private final Map<String, TenantQueue<T>> tenants = new HashMap<>();
  private final ArrayDeque<TenantQueue<T>> ring = new ArrayDeque<>();
  private int size;

  Band(int priority) {
    this.priority = priority;
  }

  int priority() {
    return priority;
  }

  int size() {
    return size;
  }

  void add(Queued<T> q) {
    TenantQueue<T> t = tenants.get(q.request().tenant());
    if (t == null) {
      t = new TenantQueue<>(q.request().tenant());
      tenants.put(t.tenant(), t);
      ring.addLast(t);
    }
    t.add(q);
    size++;
  }

  /** The request at the head of the ring's first tenant: a hint of what goes next. */
  Queued<T> peek() {
    TenantQueue<T> t = ring.peekFirst();
    return t == null ? null : t.peek();
  }

  Queued<T> poll() {
    return poll(tenant -> true);
  }

  /** The head of the first tenant {@code eligible} may go, by DRR among them; null if none. */
  Queued<T> peek(Predicate<String> eligible) {
    for (TenantQueue<T> t : ring) {
      if (eligible.test(t.tenant())) {
        return t.peek();
      }
    }
    return null;
  }

  /** The next request by DRR among the tenants {@code eligible} accepts; null if none. */
  Queued<T> poll(Predicate<String> eligible) {
    if (peek(eligible) == null) {
      return null;
    }
    TenantQueue<T> t = firstAffording(eligible);
    if (t == null) {
      addRounds(eligible);
      t = firstAffording(eligible);
    }
    ring.remove(t);
    Queued<T> q = t.poll();
    t.deficit -= q.request().tokens();
    size--;
    if (t.isEmpty()) {
      tenants.remove(t.tenant()); // an idle tenant keeps no credit
    } else if (t.deficit >= t.peek().request().tokens()) {
      ring.addFirst(t);
    } else {
      ring.addLast(t);
    }
    return q;
  }

  private TenantQueue<T> firstAffording(Predicate<String> eligible) {
    for (TenantQueue<T> t : ring) {
      if (eligible.test(t.tenant()) && t.deficit >= t.peek().request().tokens()) {
        return t;
      }
    }
    return null;
  }

  /** Adds the fewest whole rounds after which some eligible tenant can afford its next request. */
  private void addRounds(Predicate<String> eligible) {
    long rounds = Long.MAX_VALUE;
    for (TenantQueue<T> t : ring) {
      if (!eligible.test(t.tenant())) {
        continue;
      }
      long missing = t.peek().request().tokens() - t.deficit;
      rounds = Math.min(rounds, (missing + QUANTUM - 1) / QUANTUM);
    }
    for (TenantQueue<T> t : ring) {
      t.deficit += rounds * QUANTUM;
    }
  }

  boolean remove(Queued<T> q) {
    TenantQueue<T> t = tenants.get(q.request().tenant());
    if (t == null || !t.remove(q)) {
      return false;
    }
    size--;
    if (t.isEmpty()) {
      tenants.remove(t.tenant());
      ring.remove(t);
    }
    return true;
  }

  /** The most recently arrived request: the one evicted first. */
  Queued<T> newest() {
    Queued<T> newest = null;
    for (TenantQueue<T> t : ring) {
      for (Queued<T> q : t.all()) {
        if (newest == null || q.seq() > newest.seq()) {
          newest = q;
        }
      }
    }
    return newest;
  }

  void collect(List<Queued<T>> out) {
    for (Iterator<TenantQueue<T>> it = ring.iterator(); it.hasNext(); ) {
      for (Queued<T> q : it.next().all()) {
        out.add(q);
      }
    }
  }
}
