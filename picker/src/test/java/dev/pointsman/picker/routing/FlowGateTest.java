package dev.pointsman.picker.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.Usage;
import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.FlowListener;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Flow control in front of real routing, with a fake clock and an executor run by hand. */
class FlowGateTest {
  private static final String ADDRESS = "10.0.0.1:8000";
  private static final long MS = 1_000_000L;

  private final AtomicLong clock = new AtomicLong(5_000 * MS);
  private final InFlightTracker inFlight = new InFlightTracker();
  private final Scheduler scheduler =
      new Scheduler(new PrefixIndex(1000), inFlight, PrefixHasher.DEFAULT, clock::get);
  private volatile PoolSnapshot pool = pool(saturated());
  private final ManualExecutor executor = new ManualExecutor();
  private final OneHopRouter router =
      new OneHopRouter(
          () ->
              ModelResolver.of(
                  new ModelsConfig(
                      List.of(new ModelEntry("m", List.of(), null, List.of(PoolTarget.of("gpu")))),
                      null)),
          name -> pool,
          PolicyRegistry.withDefaults(),
          scheduler,
          new Objectives(
              List.of(new Objectives.Objective("batch", -1), new Objectives.Objective("vip", 10))),
          () -> new SplittableRandom(1),
          null);
  private final FlowGate gate =
      new FlowGate(
          router,
          new FlowLimits(100, 1 << 20, 1_000 * MS),
          executor,
          clock::get,
          FlowListener.NONE);
  private final RequestParser parser = new RequestParser(ParserLimits.defaults());

  private static PoolSnapshot pool(EndpointMetrics metrics) {
    return new PoolSnapshot(
        "gpu", List.of(new EndpointState(new Endpoint(ADDRESS, "gpu"), metrics, true)));
  }

  private static EndpointMetrics idle() {
    return new EndpointMetrics(0, 0, 0.1, 100_000, Set.of(), Set.of(), 4, Double.NaN, 0);
  }

  private static EndpointMetrics saturated() {
    return new EndpointMetrics(50, 200, 0.95, 100_000, Set.of(), Set.of(), 4, Double.NaN, 0);
  }

  private RouteInput input(String id, String objective, String tenant, double ttftSlo) {
    String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    return new RouteInput(
        id,
        parser.parse("/v1/chat/completions", body.getBytes(StandardCharsets.UTF_8)),
        objective,
        null,
        Double.NaN,
        tenant,
        ttftSlo,
        body.length());
  }

  @Test
  void aTenantAheadOfItsShareWaitsUntilOneOfItsRequestsEnds() {
    // given: fairness from load 0.2 (one request queued on the pod, the default threshold 5)
    FlowGate sharing =
        new FlowGate(
            router,
            new FlowLimits(100, 1 << 20, 1_000 * MS, 0.8, 0.2),
            executor,
            clock::get,
            FlowListener.NONE);
    pool = pool(idle());
    RouteOutcome first = sharing.submit(input("n1", null, "noisy", Double.NaN)).join();
    sharing.submit(input("n2", null, "noisy", Double.NaN)).join();
    assertThat(sharing.submit(input("q1", null, "quiet", Double.NaN))).isCompleted();

    // when: the pod holds 3 pending requests (load 0.6), 2 of them noisy's: over 3 / 2
    CompletableFuture<RouteOutcome> held = sharing.submit(input("n3", null, "noisy", Double.NaN));

    // then: it waits; one of noisy's requests ending lets it go
    assertThat(held).isNotDone();
    sharing.completed(
        (RouteOutcome.Routed) first,
        new Completion(200, 1, 2, Usage.NONE, null, Completion.End.COMPLETED));
    executor.runAll();
    assertThat(held).isCompleted();
    assertThat(held.join()).isInstanceOf(RouteOutcome.Routed.class);
    assertThat(sharing.waiting()).isZero();
  }

  @Test
  void aRequestForAnIdlePoolIsRoutedAtOnce() {
    pool = pool(idle());

    CompletableFuture<RouteOutcome> f = gate.submit(input("r1", null, null, Double.NaN));

    assertThat(f).isCompleted();
    assertThat(f.join()).isInstanceOf(RouteOutcome.Routed.class);
    assertThat(gate.waiting()).isZero();
  }

  @Test
  void aRequestForASaturatedPoolWaitsAndIsRoutedWhenAScrapeShowsRoom() {
    CompletableFuture<RouteOutcome> f = gate.submit(input("r1", null, null, Double.NaN));
    assertThat(f).isNotDone();
    assertThat(gate.waiting()).isEqualTo(1);

    pool = pool(idle());
    gate.poke();
    assertThat(f).isNotDone(); // the dispatch runs on the executor
    executor.runAll();

    assertThat(f.join()).isInstanceOf(RouteOutcome.Routed.class);
    assertThat(inFlight.liveRequests()).isEqualTo(1);
  }

  @Test
  void aWrappingRoutingPassesTheOutcomeOnAndItsCancellationBack() {
    // a decorator (the recorder, shadow mode) over the gate: Routing.then
    java.util.List<RouteOutcome> seen = new java.util.ArrayList<>();
    CompletableFuture<RouteOutcome> kept =
        Routing.then(
            gate.submit(input("r1", null, null, Double.NaN)),
            o -> {
              seen.add(o);
              return o;
            });
    CompletableFuture<RouteOutcome> left =
        Routing.then(gate.submit(input("r2", null, null, Double.NaN)), o -> o);
    assertThat(gate.waiting()).isEqualTo(2);

    // when: r2's stream goes away while it waits; then the pool has room
    left.cancel(false);
    pool = pool(idle());
    gate.poke();
    executor.runAll();

    // then: r2 left the queue (only r1 holds the pod), and r1's outcome passed the decorator
    assertThat(kept.join()).isInstanceOf(RouteOutcome.Routed.class);
    assertThat(seen).containsExactly(kept.join());
    assertThat(gate.waiting()).isZero();
    assertThat(inFlight.liveRequests()).isEqualTo(1);
  }

  @Test
  void aReleaseDispatchesTheNextWaitingRequest() {
    pool = pool(idle());
    RouteOutcome.Routed first =
        (RouteOutcome.Routed) gate.submit(input("r1", null, null, Double.NaN)).join();
    pool = pool(saturated());
    CompletableFuture<RouteOutcome> second = gate.submit(input("r2", null, null, Double.NaN));
    pool = pool(idle());

    gate.completed(first, new Completion(200, 1, 2, Usage.NONE, ADDRESS, Completion.End.COMPLETED));
    executor.runAll();

    assertThat(second.join()).isInstanceOf(RouteOutcome.Routed.class);
  }

  @Test
  void aWaitingRequestPastItsTtlGets429WithTheReason() {
    CompletableFuture<RouteOutcome> f = gate.submit(input("r1", null, null, Double.NaN));

    clock.addAndGet(1_000 * MS);
    gate.pump();

    RouteOutcome.Rejected r = (RouteOutcome.Rejected) f.join();
    assertThat(r.error().httpStatus()).isEqualTo(429);
    assertThat(r.droppedReason()).isEqualTo(DroppedReason.QUEUE_TIMEOUT);
    assertThat(r.reason()).isEqualTo("flow_ttl");
    assertThat(r.retryAfterSeconds()).isEqualTo(1);
  }

  @Test
  void aWaitingRequestPastItsTtlGets503WhenThePoolLostItsEndpoints() {
    CompletableFuture<RouteOutcome> f = gate.submit(input("r1", null, null, Double.NaN));

    pool = PoolSnapshot.empty("gpu");
    clock.addAndGet(1_000 * MS);
    gate.pump();

    RouteOutcome.Rejected r = (RouteOutcome.Rejected) f.join();
    assertThat(r.error().httpStatus()).isEqualTo(503);
    assertThat(r.droppedReason()).isEqualTo(DroppedReason.NO_ENDPOINTS);
  }

  @Test
  void theHigherBandGoesFirstAndASheddableRequestWaitsRatherThanBeingShed() {
    CompletableFuture<RouteOutcome> batch = gate.submit(input("b", "batch", null, Double.NaN));
    CompletableFuture<RouteOutcome> plain = gate.submit(input("p", null, null, Double.NaN));
    CompletableFuture<RouteOutcome> vip = gate.submit(input("v", "vip", null, Double.NaN));
    assertThat(List.of(batch, plain, vip)).noneMatch(CompletableFuture::isDone);

    // room for one more request only: the endpoint is one waiting request below its threshold
    pool = pool(new EndpointMetrics(4, 10, 0.1, 100_000, Set.of(), Set.of(), 4, Double.NaN, 0));
    gate.pump();

    assertThat(vip.join()).isInstanceOf(RouteOutcome.Routed.class);
    assertThat(plain).isNotDone();
    assertThat(batch).isNotDone();
  }

  @Test
  void aCancelledRequestLeavesTheQueueAndIsNeverRouted() {
    CompletableFuture<RouteOutcome> f = gate.submit(input("r1", null, null, Double.NaN));

    f.cancel(false);
    pool = pool(idle());
    gate.pump();

    assertThat(gate.waiting()).isZero();
    assertThat(inFlight.liveRequests()).isZero();
  }

  @Test
  void aTtftObjectiveNoEndpointCanMeetIsRefusedAtOnce() {
    // a saturated endpoint: 50 waiting requests ahead
    CompletableFuture<RouteOutcome> f = gate.submit(input("r1", null, null, 0.001));

    RouteOutcome.Rejected r = (RouteOutcome.Rejected) f.join();
    assertThat(r.error().httpStatus()).isEqualTo(429);
    assertThat(r.droppedReason()).isEqualTo(DroppedReason.DEADLINE);
    assertThat(r.error().code()).isEqualTo("deadline_unmeetable");
  }

  @Test
  void anUnknownModelIsAnsweredAtOnceAsWithoutFlowControl() {
    String body = "{\"model\":\"nope\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    RouteInput in =
        new RouteInput(
            "r1",
            parser.parse("/v1/chat/completions", body.getBytes(StandardCharsets.UTF_8)),
            null,
            null);

    RouteOutcome o = gate.submit(in).join();

    assertThat(o).isEqualTo(router.route(in));
  }

  /** Runs what it was given when the test says so. */
  private static final class ManualExecutor implements Executor {
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
      tasks.add(task);
    }

    void runAll() {
      Runnable r;
      while ((r = next()) != null) {
        r.run();
      }
    }

    private synchronized Runnable next() {
      return tasks.poll();
    }
  }
}
