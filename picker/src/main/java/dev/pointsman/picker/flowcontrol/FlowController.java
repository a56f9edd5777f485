package dev.pointsman.picker.flowcontrol;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Flow control for one group of pools: a request goes at once while the pools have room for it and
 * nobody of its band or a higher one waits; otherwise it waits in a {@link FlowQueue} until the
 * pools have room again ({@link #pump}: on each scrape and each release), its TTL runs out, or its
 * TTFT objective can no longer be met. Pure: no threads, no clock of its own (times come in), not
 * thread-safe (the caller holds one lock around every call, and completes requests outside it).
 *
 * @param <T> the caller's payload, handed back to its {@link Sink}
 */
public final class FlowController<T> {

  /** The current load of the pools, as one request (waiting or arriving) would meet it. */
  @FunctionalInterface
  public interface Probe<T> {
    Pressure pressure(Queued<T> q);
  }

  /** TTLs and deadlines are looked at no more often than this (each look probes every deadline). */
  static final long SWEEP_NANOS = 10_000_000L;

  /** Where requests leave flow control. Called under the caller's lock. */
  public interface Sink<T> {
    /** Route it now: it waited. */
    void dispatch(Queued<T> q);

    /**
     * Route it now: it never waited (the pools had room and nobody waited). The caller may route it
     * outside its lock.
     */
    default void admitted(Queued<T> q) {
      dispatch(q);
    }

    /** Refuse it: {@code pressure} says whether the pools still have endpoints. */
    void drop(Queued<T> q, DropReason reason, Pressure pressure);
  }

  private final FlowLimits limits;
  private final FlowListener listener;
  private final QueuedBytes total;
  private final FlowQueue<T> queue;
  private final Map<String, Integer> inFlight = new HashMap<>();
  private int totalInFlight;
  private long seq;
  private long lastSweep = Long.MIN_VALUE;

  public FlowController(FlowLimits limits, FlowListener listener) {
    this(limits, listener, QueuedBytes.unbounded());
  }

  /**
   * @param total the body bytes waiting here and in the other controllers that share it, against a
   *     bound for them all; they must be driven under one lock
   */
  public FlowController(FlowLimits limits, FlowListener listener, QueuedBytes total) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.total = Objects.requireNonNull(total, "total");
    this.queue = new FlowQueue<>(total);
  }

  /** Waiting requests. */
  public int size() {
    return queue.size();
  }

  /** Waiting requests' body bytes. */
  public long bytes() {
    return queue.bytes();
  }

  /**
   * Admits a request that arrives at {@code request.arrivalNanos()}: dispatched at once, refused
   * (its objective cannot be met, or no room), or queued. Returns the handle of a queued request,
   * else null (the sink has been told).
   */
  public Queued<T> admit(FlowRequest request, T payload, Probe<T> probe, Sink<T> sink) {
    Queued<T> q = new Queued<>(request, payload, seq++);
    long now = request.arrivalNanos();
    Pressure p = probe.pressure(q);
    if (missesDeadline(request, p, now)) {
      refuse(q, DropReason.DEADLINE, p, sink);
      return null;
    }
    if (!queue.waitsAtOrAbove(request.priority())
        && (!p.hasEndpoints() || limits.room(request.priority(), p) && !overShare(request, p))) {
      // nobody it would overtake, and room (or nothing to wait for: routing answers as without
      // flow control); lower bands waiting do not hold it up
      started(request);
      sink.admitted(q);
      return null;
    }
    if (!makeRoom(request, p, sink)) {
      refuse(q, DropReason.OVERFLOW, p, sink);
      return null;
    }
    queue.add(q);
    listener.queued(request);
    pump(now, probe, sink);
    return q.waiting() ? q : null;
  }

  /**
   * At {@code now}: refuses requests past their TTL or whose TTFT objective can no longer be met
   * (at most every {@link #SWEEP_NANOS}), then dispatches in order while the pools have room for
   * the next one (for a sheddable one: room and the headroom of {@link
   * FlowLimits#sheddableHeadroom}).
   */
  public void pump(long now, Probe<T> probe, Sink<T> sink) {
    if (lastSweep == Long.MIN_VALUE || now - lastSweep >= SWEEP_NANOS) {
      lastSweep = now;
      sweep(now, probe, sink);
    }
    while (!queue.isEmpty()) {
      Queued<T> head = queue.peek();
      Pressure load = probe.pressure(head);
      Predicate<String> eligible = withinShare(load);
      Queued<T> next = queue.peek(eligible);
      if (next == null) {
        return; // every waiting tenant has more than its share in flight: a release pumps again
      }
      Pressure p = next == head ? load : probe.pressure(next);
      if (!p.hasEndpoints() || !limits.room(next.request().priority(), p)) {
        return; // lower bands wait too: strict between bands, sheddable ones need headroom
      }
      Queued<T> q = queue.poll(eligible);
      listener.dequeued(q.request(), now - q.request().arrivalNanos());
      started(q.request());
      sink.dispatch(q);
    }
  }

  /** Refuses the requests past their TTL, and those whose TTFT objective can no longer be met. */
  private void sweep(long now, Probe<T> probe, Sink<T> sink) {
    for (Queued<T> q : queue.all()) {
      FlowRequest r = q.request();
      if (now - r.arrivalNanos() >= limits.ttlNanos()) {
        leave(q, now);
        refuse(q, DropReason.TTL, probe.pressure(q), sink);
      } else if (r.hasDeadline()) {
        Pressure p = probe.pressure(q);
        if (missesDeadline(r, p, now)) {
          leave(q, now);
          refuse(q, DropReason.DEADLINE, p, sink);
        }
      }
    }
  }

  /**
   * A request this controller let go (admitted or dispatched) has ended, or never reached a model
   * server: {@code tenant} has one request fewer in flight.
   */
  public void finished(String tenant) {
    Integer n = inFlight.get(tenant);
    if (n == null) {
      return;
    }
    if (n == 1) {
      inFlight.remove(tenant);
    } else {
      inFlight.put(tenant, n - 1);
    }
    totalInFlight--;
  }

  /** Requests of {@code tenant} let go and not yet finished. */
  public int inFlight(String tenant) {
    return inFlight.getOrDefault(tenant, 0);
  }

  private void started(FlowRequest r) {
    inFlight.merge(r.tenant(), 1, Integer::sum);
    totalInFlight++;
  }

  private boolean overShare(FlowRequest r, Pressure p) {
    return !withinShare(p).test(r.tenant());
  }

  /**
   * Which tenants may go now ({@link FlowLimits#tenantShareLoad}): all while the pools are loaded
   * below it; from it on, those with nothing in flight or no more than an equal share of what is in
   * flight among the tenants in flight or waiting. The share is counted once per call, not per
   * tenant tested.
   */
  private Predicate<String> withinShare(Pressure p) {
    if (p.load() < limits.tenantShareLoad()) {
      return tenant -> true;
    }
    Set<String> active = new HashSet<>(inFlight.keySet());
    active.addAll(queue.tenants());
    if (active.size() <= 1) {
      return tenant -> true;
    }
    double share = (double) totalInFlight / active.size();
    return tenant -> {
      int mine = inFlight.getOrDefault(tenant, 0);
      return mine == 0 || mine <= share;
    };
  }

  /** Takes a waiting request out (its stream went away). Returns whether it was waiting. */
  public boolean cancel(Queued<T> q, long now) {
    if (!queue.remove(q)) {
      return false;
    }
    listener.dequeued(q.request(), now - q.request().arrivalNanos());
    return true;
  }

  /**
   * Whether {@code r}'s first token is due before the soonest any endpoint is predicted to give it
   * (or is already due). Without endpoints there is no prediction to refuse on.
   */
  private static boolean missesDeadline(FlowRequest r, Pressure p, long now) {
    if (!r.hasDeadline()) {
      return false;
    }
    long left = r.deadlineNanos() - now;
    return left <= 0 || (p.hasEndpoints() && p.bestTtftNanos() > left);
  }

  /** Evicts sheddable requests of lower bands until {@code r} fits; false if it cannot. */
  private boolean makeRoom(FlowRequest r, Pressure p, Sink<T> sink) {
    if (fits(r, 0, 0)) {
      return true;
    }
    long[] evictable = queue.evictable(r.priority());
    if (!fits(r, evictable[0], evictable[1])) {
      return false;
    }
    while (!fits(r, 0, 0)) {
      Queued<T> victim = queue.victimFor(r.priority());
      leave(victim, r.arrivalNanos());
      refuse(victim, DropReason.EVICTED, p, sink);
    }
    return true;
  }

  private boolean fits(FlowRequest r, long freedCount, long freedBytes) {
    return queue.size() - freedCount + 1 <= limits.maxQueued()
        && queue.bytes() - freedBytes + r.bytes() <= limits.maxQueuedBytes()
        && total.fits(r.bytes() - freedBytes);
  }

  private void leave(Queued<T> q, long now) {
    queue.remove(q);
    listener.dequeued(q.request(), now - q.request().arrivalNanos());
  }

  private void refuse(Queued<T> q, DropReason reason, Pressure p, Sink<T> sink) {
    listener.rejected(q.request(), reason);
    sink.drop(q, reason, p);
  }
}
