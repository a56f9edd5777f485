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
import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.FlowListener;
import dev.pointsman.picker.flowcontrol.QueuedBytes;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Budgets through the gate: refused with headers, settled from usage, given back when unused. */
class FlowGateBudgetTest {
  private static final long MS = 1_000_000L;

  private final AtomicLong clock = new AtomicLong(5_000 * MS);
  private final InFlightTracker inFlight = new InFlightTracker();
  private volatile PoolSnapshot pool = pool(0);
  private final TokenBudgets budgets =
      new TokenBudgets(List.of(new Budget("team-a", null, 6_000, 0)), clock::get);
  private final FlowGate gate =
      new FlowGate(
          new OneHopRouter(
              () ->
                  ModelResolver.of(
                      new ModelsConfig(
                          List.of(
                              new ModelEntry("m", List.of(), null, List.of(PoolTarget.of("gpu")))),
                          null)),
              name -> pool,
              PolicyRegistry.withDefaults(),
              new Scheduler(new PrefixIndex(1000), inFlight, PrefixHasher.DEFAULT, clock::get),
              Objectives.none(),
              () -> new SplittableRandom(1),
              null),
          new FlowLimits(100, 1 << 20, 1_000 * MS),
          Runnable::run,
          clock::get,
          FlowListener.NONE,
          budgets,
          QueuedBytes.unbounded());
  private final RequestParser parser = new RequestParser(ParserLimits.defaults());

  private static PoolSnapshot pool(int waiting) {
    return new PoolSnapshot(
        "gpu",
        List.of(
            new EndpointState(
                new Endpoint("10.0.0.1:8000", "gpu"),
                new EndpointMetrics(waiting, 0, 0.1, 100_000, Set.of(), Set.of(), 4, Double.NaN, 0),
                true)));
  }

  /** A request estimated at 4 prompt tokens plus {@code maxTokens}. */
  private CompletableFuture<RouteOutcome> submit(String tenant, int maxTokens) {
    String body =
        "{\"model\":\"m\",\"max_tokens\":"
            + maxTokens
            + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    return gate.submit(
        new RouteInput(
            "r",
            parser.parse("/v1/chat/completions", body.getBytes(StandardCharsets.UTF_8)),
            null,
            null,
            Double.NaN,
            tenant,
            Double.NaN,
            body.length()));
  }

  @Test
  void aTenantOverItsBudgetGets429WithItsRemainingValues() {
    assertThat(submit("team-a", 4_000).join()).isInstanceOf(RouteOutcome.Routed.class);

    RouteOutcome.Rejected r = (RouteOutcome.Rejected) submit("team-a", 4_000).join();

    assertThat(r.error().httpStatus()).isEqualTo(429);
    assertThat(r.error().code()).isEqualTo("budget_exceeded");
    assertThat(r.droppedReason()).isEqualTo(DroppedReason.BUDGET);
    assertThat(r.retryAfterSeconds()).isPositive();
    long remaining = budgets.remainingTokens("team-a", "m");
    assertThat(r.headers())
        .containsEntry("x-ratelimit-limit-tokens", "6000")
        .containsEntry("x-ratelimit-remaining-tokens", Long.toString(remaining))
        .doesNotContainKey("x-ratelimit-limit-requests");
    assertThat(submit("team-b", 4_000).join()).isInstanceOf(RouteOutcome.Routed.class);
  }

  @Test
  void aRoutedRequestSettlesWithItsUsage() {
    RouteOutcome.Routed routed = (RouteOutcome.Routed) submit("team-a", 4_000).join();
    long before = budgets.remainingTokens("team-a", "m");

    gate.completed(
        routed, new Completion(200, 1, 2, new Usage(100, 400, 0), null, Completion.End.COMPLETED));

    assertThat(budgets.remainingTokens("team-a", "m")).isGreaterThan(before);
    assertThat(budgets.remainingTokens("team-a", "m")).isEqualTo(6_000 - 500);
  }

  @Test
  void aQueuedRequestWhoseStreamWentAwayGivesItsReservationBack() {
    pool = pool(50);
    CompletableFuture<RouteOutcome> f = submit("team-a", 4_000);
    assertThat(budgets.remainingTokens("team-a", "m")).isLessThan(6_000);

    f.cancel(false);

    assertThat(budgets.remainingTokens("team-a", "m")).isEqualTo(6_000);
  }

  @Test
  void aRefusedQueuedRequestGivesItsReservationBack() {
    pool = pool(50);
    CompletableFuture<RouteOutcome> f = submit("team-a", 4_000);

    clock.addAndGet(1_000 * MS);
    gate.pump();

    assertThat(f.join()).isInstanceOf(RouteOutcome.Rejected.class);
    assertThat(budgets.remainingTokens("team-a", "m")).isEqualTo(6_000);
  }
}
