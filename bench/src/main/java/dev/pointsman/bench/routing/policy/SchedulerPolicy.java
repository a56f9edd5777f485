package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.Usage;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.FlowListener;
import dev.pointsman.picker.flowcontrol.QueuedBytes;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.routing.DroppedReason;
import dev.pointsman.picker.routing.FlowGate;
import dev.pointsman.picker.routing.Objectives;
import dev.pointsman.picker.routing.OneHopRouter;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.routing.Routing;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.latency.LatencyModel;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex.Forgetting;
import dev.pointsman.picker.scheduling.prior.SpeedPriors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.random.RandomGenerator;

/**
 * A policy run by the picker's production routing, as shipped: the request is the JSON body a
 * client sends, parsed by the picker's parser ({@link ClientRequests}), and handed to the picker's
 * {@link OneHopRouter} as the ext_proc service hands it ({@link RouteInput}: request id, parsed
 * body, objective header). The router resolves the model from what the pods list, builds the {@code
 * SchedulingRequest} (token estimate from the text, prompt prefix, output limit, sheddable) and
 * runs the {@link Scheduler} with its own {@link InFlightTracker} (told of every applied scrape)
 * and its own {@link PrefixIndex} sized as in the picker. The response is reported to the router as
 * the ext_proc response phase reports it: the first body byte (the first token when streamed, the
 * whole answer otherwise) and the end of the stream with its {@code usage}. So it learns what the
 * picker learns, when the picker learns it: nothing from a non-streamed response. Used for {@code
 * pointsman} (the production default) and the scorer-framework baselines ({@code gie-default},
 * {@code queue-only}, …). When the policy has a {@code predicted-latency-scorer}, its TTFT
 * prediction for the chosen endpoint is reported so the bench can measure its error, and so is its
 * time-per-output-token prediction.
 */
final class SchedulerPolicy implements RoutingPolicy {
  /** The objective the bench's sheddable requests name (a negative priority: sheddable). */
  static final String SHEDDABLE_OBJECTIVE = "bench-sheddable";

  /** The objectives a workload part's {@code priority} names: {@code bench-priority-<p>}. */
  static final String PRIORITY_OBJECTIVE = "bench-priority-";

  private static final long NS_PER_MS = 1_000_000L;

  private final String name;
  private final FleetView fleet;
  private final Scheduler scheduler;
  private final OneHopRouter router;
  private final Map<Long, RouteOutcome.Routed> routed = new HashMap<>();
  private final Map<Long, Double> firstByteMs = new HashMap<>();
  private final Map<String, Integer> podOf = new HashMap<>();

  /** The picker's flow control in front of the router, or null (the old path: route at once). */
  private FlowGate gate;

  /** The gate's pumps after a release, run at the run's next event (its executor). */
  private final List<Runnable> pokes = new ArrayList<>();

  /** The ready endpoints the scheduler last retained ({@link FleetView#endpointsIfSome}). */
  private int[] members;

  /** Requests waiting in the gate, in arrival order. */
  private final Map<Long, CompletableFuture<RouteOutcome>> waiting = new LinkedHashMap<>();

  SchedulerPolicy(String name, SchedulingPolicy policy, FleetView fleet, RandomGenerator random) {
    this(name, policy, fleet, random, SpeedPriors.builtIn());
  }

  /**
   * @param priors the scheduler's speed priors (the built-in spec table, or a mismatch variant's)
   */
  SchedulerPolicy(
      String name,
      SchedulingPolicy policy,
      FleetView fleet,
      RandomGenerator random,
      SpeedPriors priors) {
    this(
        name,
        policy,
        fleet,
        random,
        priors,
        PrefixHasher.DEFAULT,
        Forgetting.TAIL_FIRST,
        PickerApp.PREFIX_CHECKPOINTS);
  }

  /**
   * @param hasher how prompts are cut into prefix blocks: the picker's own ({@link
   *     PrefixHasher#DEFAULT}), or a baseline's
   * @param forgetting which of a prompt's blocks its prefix index forgets first: the picker's
   *     ({@link Forgetting#TAIL_FIRST}), or a baseline's
   * @param checkpoints which of a prompt's blocks its prefix index keeps: the picker's ({@link
   *     PickerApp#PREFIX_CHECKPOINTS}), or a baseline's (every one)
   */
  SchedulerPolicy(
      String name,
      SchedulingPolicy policy,
      FleetView fleet,
      RandomGenerator random,
      SpeedPriors priors,
      PrefixHasher hasher,
      Forgetting forgetting,
      PrefixIndex.Checkpoints checkpoints) {
    this.name = name;
    this.fleet = fleet;
    this.scheduler =
        new Scheduler(
            new PrefixIndex(
                PickerApp.PREFIX_BLOCKS_PER_ENDPOINT,
                forgetting,
                PrefixIndex.UNBOUNDED,
                checkpoints),
            new InFlightTracker(),
            hasher,
            fleet::nowNanos,
            new LatencyModel(),
            priors);
    ClientRequests clients = fleet.requests();
    ModelResolver resolver =
        ModelResolver.of(new ModelsConfig(List.of(), null))
            .withDiscovered(FleetView.POOL, clients.baseModel(), clients.adapters());
    this.router =
        new OneHopRouter(
            () -> resolver,
            pool -> fleet.pool(),
            new PolicyRegistry(policy),
            scheduler,
            new Objectives(objectives()),
            () -> random,
            null);
    for (int i = 0; i < fleet.size(); i++) {
      podOf.put(FleetView.address(i), i);
    }
  }

  private static List<Objectives.Objective> objectives() {
    List<Objectives.Objective> list = new ArrayList<>();
    list.add(new Objectives.Objective(SHEDDABLE_OBJECTIVE, -1));
    for (int p = -100; p <= 100; p++) {
      list.add(new Objectives.Objective(PRIORITY_OBJECTIVE + p, p));
    }
    return list;
  }

  /**
   * Puts the picker's own {@link FlowGate} in front of the router, on the virtual clock: a request
   * for a saturated pool waits in it and is routed by {@link #pumpFlow} when a scrape or a release
   * shows room; a tenant beyond its budget in {@code budgets} is refused at once.
   */
  void enableFlowControl(FlowLimits limits, TokenBudgets budgets) {
    gate =
        new FlowGate(
            router,
            limits,
            pokes::add,
            fleet::nowNanos,
            FlowListener.NONE,
            budgets,
            QueuedBytes.unbounded()); // the benchmark's bodies never come near a heap's share
  }

  /** The virtual clock this replica reads. */
  long nowNanos() {
    return fleet.nowNanos();
  }

  boolean flowControlled() {
    return gate != null;
  }

  /** Requests waiting in the gate now. */
  int flowWaiting() {
    return waiting.size();
  }

  /**
   * Runs the gate's pending pumps and a pump now (TTLs, room freed by scrapes and releases), and
   * returns the requests that left the gate since, routed or refused, in arrival order.
   */
  Map<Long, Route> pumpFlow() {
    if (gate == null || waiting.isEmpty()) {
      pokes.clear();
      return Map.of();
    }
    applyMembership();
    List<Runnable> due = new ArrayList<>(pokes);
    pokes.clear();
    due.forEach(Runnable::run);
    gate.pump();
    Map<Long, Route> left = new LinkedHashMap<>();
    var it = waiting.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      if (e.getValue().isDone()) {
        it.remove();
        left.put(e.getKey(), toRoute(e.getKey(), e.getValue().join()));
      }
    }
    return left;
  }

  private Routing routing() {
    return gate != null ? gate : router;
  }

  @Override
  public String name() {
    return name;
  }

  /** The scheduler, for tests of what it learned. */
  Scheduler scheduler() {
    return scheduler;
  }

  /**
   * What the ext_proc service hands the router for {@code r}: the request id, the parsed body and
   * the objective header; nothing else about the request reaches the scheduler.
   */
  static RouteInput routeInput(BenchRequest r, ClientRequests clients) {
    if (r.tenant() == null && r.priority() == null) {
      return new RouteInput(
          Long.toString(r.id()),
          clients.parsed(r),
          r.sheddable() ? SHEDDABLE_OBJECTIVE : null,
          null);
    }
    String objective =
        r.priority() != null
            ? PRIORITY_OBJECTIVE + r.priority()
            : r.sheddable() ? SHEDDABLE_OBJECTIVE : null;
    return new RouteInput(
        Long.toString(r.id()),
        clients.parsed(r),
        objective,
        null,
        Double.NaN,
        r.tenant(),
        Double.NaN,
        -1);
  }

  /**
   * The picker's membership listener: when the pool's ready endpoints change (a pod out for a
   * restart leaves them, and comes back with its caches empty), the scheduler forgets what it
   * learned of those that left, and the datastore their in-flight work, as {@code PickerApp} does
   * on the pod watch's update.
   */
  private void applyMembership() {
    int[] now = fleet.endpointsIfSome();
    if (Arrays.equals(now, members)) {
      return;
    }
    members = now;
    List<String> addresses = new ArrayList<>();
    if (now == null) {
      for (int i = 0; i < fleet.size(); i++) {
        addresses.add(FleetView.address(i));
      }
    } else {
      for (int pod : now) {
        addresses.add(FleetView.address(pod));
      }
    }
    scheduler.retain(addresses);
    scheduler.inFlight().retain(addresses);
  }

  @Override
  public Route route(BenchRequest r) {
    applyMembership();
    if (gate == null) {
      return toRoute(r.id(), router.route(routeInput(r, fleet.requests())));
    }
    CompletableFuture<RouteOutcome> future = gate.submit(routeInput(r, fleet.requests()));
    if (future.isDone()) {
      return toRoute(r.id(), future.join());
    }
    waiting.put(r.id(), future);
    return Route.queued();
  }

  private Route toRoute(long id, RouteOutcome outcome) {
    return switch (outcome) {
      case RouteOutcome.Routed p -> {
        routed.put(id, p);
        yield Route.to(
            podOf.get(p.address()),
            p.picked().predictedTtftSeconds() * 1000,
            p.picked().prediction().predictedTpotSeconds() * 1000);
      }
      // behind flow control every refusal (saturated, TTL, overflow, evicted) is a 429: shed
      case RouteOutcome.Rejected j ->
          DroppedReason.SATURATED.equals(j.droppedReason()) || gate != null
              ? Route.shed()
              : Route.failed();
    };
  }

  @Override
  public void onScrape(int pod) {
    scheduler.inFlight().onScrape(FleetView.address(pod));
  }

  /**
   * The response's first byte reached the gateway ({@link Gateway} times it: the first token of a
   * streamed response, the end of a non-streamed one). The router learns the time to first token
   * from it only when the response is streamed, as the picker does.
   */
  @Override
  public void onFirstToken(BenchRequest request, int pod) {
    RouteOutcome.Routed p = routed.get(request.id());
    if (p != null && firstByteMs.putIfAbsent(request.id(), fleet.nowMs()) == null) {
      routing().firstByte(p, 200, p.address(), sinceArrival(request));
    }
  }

  /**
   * The pod went away mid-request (an engine restart) or refused it: the stream ends in error with
   * no usage. Without a first byte the gateway saw a 503; either way the ticket is released and
   * nothing is learned from a usage the response never reported.
   */
  @Override
  public void onFailed(BenchRequest request, int pod) {
    end(request, true);
  }

  /** The stream ends, with the answer's {@code usage}. */
  @Override
  public void onFinish(BenchRequest request, int pod) {
    end(request, false);
  }

  private void end(BenchRequest request, boolean failed) {
    RouteOutcome.Routed p = routed.remove(request.id());
    Double first = firstByteMs.remove(request.id());
    if (p == null) {
      return;
    }
    Completion.End end = failed ? Completion.End.ERROR : Completion.End.COMPLETED;
    long total = sinceArrival(request);
    if (first == null) {
      routing().firstByte(p, 503, p.address(), total);
      routing().completed(p, new Completion(503, total, total, Usage.NONE, p.address(), end));
      return;
    }
    long ttft = (long) ((first - request.arrivalMs()) * NS_PER_MS);
    Usage usage =
        failed
            ? Usage.NONE
            : new Usage(
                request.sim().promptTokens(),
                request.sim().outputTokens(),
                Usage.NONE.cachedTokens());
    routing().completed(p, new Completion(200, ttft, total, usage, p.address(), end));
  }

  private long sinceArrival(BenchRequest request) {
    return (long) ((fleet.nowMs() - request.arrivalMs()) * NS_PER_MS);
  }
}
