package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.FlowListener;
import dev.pointsman.picker.flowcontrol.QueuedBytes;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.routing.FlowGate;
import dev.pointsman.picker.routing.Objectives;
import dev.pointsman.picker.routing.OneHopRouter;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import dev.pointsman.testing.Await;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flow control through the ext_proc protocol, in-process: a request for a saturated pool is held
 * with its stream open (no reply at all), and answered as usual once a scrape shows room; a stream
 * Envoy resets while held leaves the queue.
 */
class FlowControlProtocolTest {
  private static final String MODEL = "llama-3-8b";
  private static final long MS = 1_000_000L;

  private final AtomicLong clock = new AtomicLong(1_000 * MS);
  private final InFlightTracker inFlight = new InFlightTracker();
  private volatile PoolSnapshot pool = pool(busy());
  private final ManualExecutor executor = new ManualExecutor();
  private FlowGate gate;
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void setUp() throws Exception {
    ModelResolver resolver =
        ModelResolver.of(
            new ModelsConfig(
                List.of(new ModelEntry(MODEL, List.of(), null, List.of(PoolTarget.of("gpu-a")))),
                null));
    OneHopRouter router =
        new OneHopRouter(
            () -> resolver,
            name -> pool,
            PolicyRegistry.withDefaults(),
            new Scheduler(new PrefixIndex(1000), inFlight, PrefixHasher.DEFAULT, clock::get),
            new Objectives(List.of(new Objectives.Objective("batch", -1))),
            () -> new SplittableRandom(7),
            null);
    gate =
        new FlowGate(
            router,
            new FlowLimits(10, 1 << 20, 1_000 * MS),
            executor,
            clock::get,
            FlowListener.NONE,
            new TokenBudgets(List.of(new Budget("metered", null, 0, 1)), clock::get),
            QueuedBytes.unbounded());
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                ExtProcService.create(
                    gate,
                    new RequestParser(new ParserLimits(1 << 20, 64 << 10, 64)),
                    ExtProcSettings.DEFAULTS,
                    ExtProcObserver.NOOP,
                    clock::get,
                    PickerOptions.DEFAULTS,
                    new FlowHeaders(FlowHeaders.DEFAULT_FAIRNESS, FlowHeaders.DEFAULT_DEADLINE)))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void tearDown() throws Exception {
    channel.shutdownNow();
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  private static PoolSnapshot pool(EndpointMetrics metrics) {
    return new PoolSnapshot(
        "gpu-a", List.of(new EndpointState(new Endpoint("10.0.0.1:8000", "gpu-a"), metrics, true)));
  }

  private static EndpointMetrics busy() {
    return Fixture.saturated();
  }

  private EnvoyReplay send(byte[] body, String... headers) {
    EnvoyReplay s =
        EnvoyReplay.open(channel).requestHeaders("POST", "/v1/chat/completions", false, headers);
    s.requestBody(body, true);
    return s;
  }

  @Test
  void aRequestIsHeldWhileThePoolIsSaturatedAndRoutedWhenAScrapeShowsRoom() {
    byte[] body = Replies.chat(MODEL, "hello", false);
    EnvoyReplay s = send(body, "x-gateway-inference-fairness-id", "team-a");

    assertThat(s.drainNow()).as("held: not even the headers reply").isEmpty();
    assertThat(gate.waiting()).isEqualTo(1);

    pool = pool(Fixture.idle()); // the scrape shows room
    gate.poke();
    executor.runAll();

    List<ProcessingResponse> replies = s.next(2);
    assertThat(Replies.setHeaders(replies.get(0).getRequestHeaders().getResponse()))
        .containsEntry("x-gateway-destination-endpoint", "10.0.0.1:8000");
    assertThat(Replies.echoedChunk(replies.get(1)).getBody()).isEqualTo(ByteString.copyFrom(body));
    assertThat(Replies.echoedChunk(replies.get(1)).getEndOfStream()).isTrue();
    assertThat(inFlight.liveRequests()).isEqualTo(1);
    assertThat(gate.waiting()).isZero();
  }

  @Test
  void aHeldRequestWhoseBodyEndedWithTrailersGetsItsTrailersReplyLast() {
    byte[] body = Replies.chat(MODEL, "hello", false);
    EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(body, false);
    s.requestTrailers();
    assertThat(s.drainNow()).isEmpty();

    pool = pool(Fixture.idle());
    gate.pump();

    List<ProcessingResponse> replies = s.next(3);
    assertThat(replies.get(0).hasRequestHeaders()).isTrue();
    assertThat(replies.get(1).hasRequestBody()).isTrue();
    assertThat(replies.get(2).hasRequestTrailers()).isTrue();
  }

  @Test
  void aHeldRequestPastItsTtlGets429WithTheDropReasonAndRetryAfter() {
    EnvoyReplay s = send(Replies.chat(MODEL, "hello", false));

    clock.addAndGet(1_000 * MS);
    gate.pump();

    ProcessingResponse r = s.next();
    Replies.assertError(r, 429, "queue_timeout");
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry("x-llm-d-request-dropped-reason", "rejected-queue-timeout")
        .containsEntry("retry-after", "1");
    assertThat(s.awaitEnd()).isTrue();
  }

  @Test
  void aStreamResetWhileHeldLeavesTheQueueAndIsNeverRouted() {
    EnvoyReplay s = send(Replies.chat(MODEL, "hello", false));
    assertThat(gate.waiting()).isEqualTo(1);

    s.cancel();
    Await.until("the held request leaves the queue", () -> gate.waiting() == 0);

    pool = pool(Fixture.idle());
    gate.pump();
    executor.runAll();
    assertThat(inFlight.liveRequests()).isZero();
  }

  @Test
  void aMalformedTtftObjectiveIsABadRequest() {
    EnvoyReplay s = send(Replies.chat(MODEL, "hello", false), "x-slo-ttft-ms", "soon");

    Replies.assertError(s.next(), 400, "invalid_slo_header");
  }

  @Test
  void aTtftObjectiveTheSaturatedPoolCannotMeetIsRefusedAtOnce() {
    EnvoyReplay s = send(Replies.chat(MODEL, "hello", false), "x-slo-ttft-ms", "1");

    ProcessingResponse r = s.next();
    Replies.assertError(r, 429, "deadline_unmeetable");
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry("x-llm-d-request-dropped-reason", "rejected-deadline");
  }

  @Test
  void aTenantOverItsBudgetGets429WithRetryAfterAndItsRemainingValues() {
    send(Replies.chat(MODEL, "hello", false), "x-gateway-inference-fairness-id", "metered");
    EnvoyReplay s =
        send(Replies.chat(MODEL, "again", false), "x-gateway-inference-fairness-id", "metered");

    ProcessingResponse r = s.next();
    Replies.assertError(r, 429, "budget_exceeded");
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry("x-llm-d-request-dropped-reason", "rejected-budget")
        .containsEntry("retry-after", "60")
        .containsEntry("x-ratelimit-limit-requests", "1")
        .containsEntry("x-ratelimit-remaining-requests", "0");
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
