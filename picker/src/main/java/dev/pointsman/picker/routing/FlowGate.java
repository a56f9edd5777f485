package dev.pointsman.picker.routing;

import dev.pointsman.extproc.Completion;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.picker.flowcontrol.DropReason;
import dev.pointsman.picker.flowcontrol.FlowController;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.FlowListener;
import dev.pointsman.picker.flowcontrol.FlowRequest;
import dev.pointsman.picker.flowcontrol.Pressure;
import dev.pointsman.picker.flowcontrol.Queued;
import dev.pointsman.picker.flowcontrol.QueuedBytes;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.scheduling.InFlightTracker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Routing with flow control in front ({@link FlowController}, one per group of pools): a request
 * for saturated pools waits here, not on a full pod, and is routed when a scrape or a release shows
 * room ({@link #poke}), or refused ({@link FlowRefusals}). Thread-safe: one lock guards the queues;
 * requests that wait are routed under it (so each dispatch sees the load of the last), requests
 * that never wait outside it, and futures complete outside it.
 */
public final class FlowGate implements Routing {
  /** Output tokens assumed for a request that does not cap them, in its DRR cost. */
  static final int DEFAULT_OUTPUT_TOKENS = 200;

  /** The tenant of requests without a fairness id. */
  public static final String DEFAULT_TENANT = "default";

  private final OneHopRouter router;
  private final FlowLimits limits;
  private final Executor executor;
  private final LongSupplier nanos;
  private final FlowListener listener;
  private final Map<String, FlowController<Waiter>> lanes = new HashMap<>();
  private final AtomicBoolean pumpQueued = new AtomicBoolean();
  private final BudgetLedger ledger;
  private final QueuedBytes queuedBytes;

  /**
   * @param executor runs the dispatch after a release or a scrape ({@link #poke})
   * @param nanos the monotonic clock
   */
  public FlowGate(
      OneHopRouter router,
      FlowLimits limits,
      Executor executor,
      LongSupplier nanos,
      FlowListener listener) {
    this(router, limits, executor, nanos, listener, TokenBudgets.none(), QueuedBytes.unbounded());
  }

  /**
   * @param budgets the tenants' token and request budgets, reserved at admission and settled from
   *     each response's usage
   * @param queuedBytes the bound on the body bytes waiting in every group's queue together
   */
  public FlowGate(
      OneHopRouter router,
      FlowLimits limits,
      Executor executor,
      LongSupplier nanos,
      FlowListener listener,
      TokenBudgets budgets,
      QueuedBytes queuedBytes) {
    this.queuedBytes = Objects.requireNonNull(queuedBytes, "queuedBytes");
    this.ledger = new BudgetLedger(Objects.requireNonNull(budgets, "budgets"));
    this.router = Objects.requireNonNull(router, "router");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.nanos = Objects.requireNonNull(nanos, "nanos");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Each request is probed against its own pools, as it would be routed. */
  private static final FlowController.Probe<Waiter> PROBE =
      q -> q.payload().target().probe().pressure(q.request());

  private record Waiter(
      RouteInput input,
      CompletableFuture<RouteOutcome> future,
      FlowTarget target,
      TokenBudgets.Reservation reservation,
      String tenant) {}

  /** Requests let go and routed, until they end: their tenant's in-flight count in its lane. */
  private final Map<InFlightTracker.Ticket, Waiter> running = new ConcurrentHashMap<>();

  @Override
  public RouteOutcome route(RouteInput input) {
    return router.route(input);
  }

  @Override
  public CompletableFuture<RouteOutcome> submit(RouteInput input) {
    FlowTarget target = router.flowTarget(input);
    if (target == null) {
      return CompletableFuture.completedFuture(router.route(input));
    }
    FlowRequest request = flowRequest(input, target.priority(), nanos.getAsLong());
    TokenBudgets.Admission budget =
        ledger.budgets().reserve(request.tenant(), input.body().model(), request.tokens());
    if (!budget.admitted()) {
      listener.rejected(request, DropReason.BUDGET);
      return CompletableFuture.completedFuture(
          FlowRefusals.budget(request.tenant(), budget.refusal()));
    }
    CompletableFuture<RouteOutcome> future = new CompletableFuture<>();
    Waiter waiter = new Waiter(input, future, target, budget.reservation(), request.tenant());
    List<Done> done = new ArrayList<>();
    FlowController<Waiter> lane;
    Queued<Waiter> queued;
    synchronized (this) {
      lane =
          lanes.computeIfAbsent(
              target.key(), k -> new FlowController<>(limits, listener, queuedBytes));
      queued = lane.admit(request, waiter, PROBE, sink(done));
    }
    for (Done d : done) {
      if (d.waiter() == waiter) {
        run(d);
      } else {
        // the caller holds its own stream: another stream's reply goes out from the executor
        executor.execute(() -> run(d));
      }
    }
    if (queued != null) {
      FlowController<Waiter> l = lane;
      future.whenComplete(
          (o, e) -> {
            if (future.isCancelled()) {
              boolean left;
              synchronized (this) {
                left = l.cancel(queued, nanos.getAsLong());
              }
              if (left) {
                ledger.release(waiter.reservation());
              }
            }
          });
    }
    return future;
  }

  /** The tenant a fairness header names: the default flow when absent or blank. */
  public static String tenant(String fairnessId) {
    return fairnessId == null || fairnessId.isBlank() ? DEFAULT_TENANT : fairnessId;
  }

  /** What a request is charged at admission: its prompt's estimate plus its output cap (or 200). */
  public static long estimatedTokens(ParsedRequest body) {
    return body.estimatedPromptTokens() + body.maxOutputTokens().orElse(DEFAULT_OUTPUT_TOKENS);
  }

  static FlowRequest flowRequest(RouteInput input, int priority, long now) {
    long prompt = input.body().estimatedPromptTokens();
    double slo = input.ttftSloSeconds();
    long deadline =
        Double.isNaN(slo) ? FlowRequest.NO_DEADLINE : now + (long) Math.min(slo * 1e9, 1e15);
    long bytes = input.bodyBytes() >= 0 ? input.bodyBytes() : input.body().promptChars();
    return new FlowRequest(
        input.requestId(),
        priority,
        tenant(input.fairnessId()),
        prompt,
        estimatedTokens(input.body()),
        bytes,
        now,
        deadline);
  }

  /**
   * Dispatches what the pools have room for and refuses what waited too long, now. The app calls it
   * periodically (for TTLs and deadlines when nothing else happens); {@link #poke} runs it on the
   * executor.
   */
  public void pump() {
    List<Done> done = new ArrayList<>();
    synchronized (this) {
      long now = nanos.getAsLong();
      for (FlowController<Waiter> lane : lanes.values()) {
        lane.pump(now, PROBE, sink(done));
      }
    }
    done.forEach(this::run);
  }

  /** Capacity may have freed (a scrape, a release): pumps on the executor, coalesced. */
  public void poke() {
    if (pumpQueued.compareAndSet(false, true)) {
      executor.execute(
          () -> {
            pumpQueued.set(false);
            pump();
          });
    }
  }

  /** Requests waiting now, in every queue. */
  public synchronized int waiting() {
    int n = 0;
    for (FlowController<Waiter> lane : lanes.values()) {
      n += lane.size();
    }
    return n;
  }

  /**
   * A request's outcome, delivered outside the lock: {@code outcome} is computed then (null: route
   * it then, it never waited).
   */
  private record Done(Waiter waiter, RouteOutcome outcome, boolean letGo) {}

  private void run(Done d) {
    Waiter w = d.waiter();
    RouteOutcome o = d.outcome() != null ? d.outcome() : router.route(w.input());
    if (o instanceof RouteOutcome.Routed r) {
      ledger.routed(r, w.reservation()); // before the stream can end it
      if (d.letGo()) {
        running.put(r.picked().ticket(), w);
      }
    }
    boolean delivered = w.future().complete(o);
    if (!delivered && o instanceof RouteOutcome.Routed r) {
      r.picked().ticket().release(); // the stream went away meanwhile
      ledger.forget(r);
      running.remove(r.picked().ticket());
    }
    if (!(o instanceof RouteOutcome.Routed) || !delivered) {
      ledger.release(w.reservation()); // it never reached a model server
      if (d.letGo()) {
        finished(w);
      }
    }
  }

  private void finished(Waiter w) {
    synchronized (this) {
      FlowController<Waiter> lane = lanes.get(w.target().key());
      if (lane != null) {
        lane.finished(w.tenant());
      }
    }
  }

  private FlowController.Sink<Waiter> sink(List<Done> done) {
    return new FlowController.Sink<>() {
      @Override
      public void dispatch(Queued<Waiter> q) {
        done.add(new Done(q.payload(), router.route(q.payload().input()), true));
      }

      @Override
      public void admitted(Queued<Waiter> q) {
        done.add(new Done(q.payload(), null, true));
      }

      @Override
      public void drop(Queued<Waiter> q, DropReason reason, Pressure pressure) {
        RouteOutcome outcome =
            FlowRefusals.of(
                reason,
                pressure,
                q.payload().target().retryAfterSeconds(),
                limits,
                queuedBytes.max());
        done.add(new Done(q.payload(), outcome, false));
      }
    };
  }

  @Override
  public RouteOutcome.Routed served(RouteOutcome.Routed routed, String endpoint) {
    RouteOutcome.Routed now = router.served(routed, endpoint);
    ledger.moved(routed, now);
    if (now.picked().ticket() != routed.picked().ticket()) {
      Waiter w = running.remove(routed.picked().ticket());
      if (w != null) {
        running.put(now.picked().ticket(), w);
      }
    }
    return now;
  }

  @Override
  public void firstByte(RouteOutcome.Routed routed, int status, String servedBy, long ttftNanos) {
    router.firstByte(routed, status, servedBy, ttftNanos);
  }

  @Override
  public void completed(RouteOutcome.Routed routed, Completion completion) {
    router.completed(routed, completion);
    ledger.completed(routed, completion);
    Waiter w = running.remove(routed.picked().ticket());
    if (w != null) {
      finished(w);
    }
    poke();
  }

  @Override
  public String modelsJson() {
    return router.modelsJson();
  }

  @Override
  public String modelJson(String id) {
    return router.modelJson(id);
  }
}
