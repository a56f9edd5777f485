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
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What the scheduler's models learn from a routed request's response stream, and what not. */
class LearningFromResponsesTest {
  private static final String ADDRESS = "10.0.0.1:8000";
  private static final long MS = 1_000_000L;

  private final Scheduler scheduler =
      new Scheduler(new PrefixIndex(1000), new InFlightTracker(), PrefixHasher.DEFAULT, () -> 0L);
  private final PoolSnapshot pool =
      new PoolSnapshot(
          "gpu",
          List.of(
              new EndpointState(
                  new Endpoint(ADDRESS, "gpu", Map.of("gpu", "H100-80")),
                  new EndpointMetrics(0, 4, 0.2, 448_000, Set.of(), Set.of(), 4, Double.NaN, 0),
                  true)));
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
          new Objectives(List.of()),
          () -> new SplittableRandom(1),
          null);
  private final RequestParser parser = new RequestParser(ParserLimits.defaults());

  private RouteOutcome.Routed route(boolean stream) {
    String body =
        "{\"model\":\"m\",\"stream\":"
            + stream
            + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    RouteInput input =
        new RouteInput(
            "r1",
            parser.parse("/v1/chat/completions", body.getBytes(StandardCharsets.UTF_8)),
            null,
            null);
    return (RouteOutcome.Routed) router.route(input);
  }

  /** Routes a request and answers it: first byte with {@code status}, then the stream's end. */
  private void answer(
      boolean stream, int status, long ttftMs, long totalMs, Usage usage, Completion.End end) {
    RouteOutcome.Routed routed = route(stream);
    router.firstByte(routed, status, ADDRESS, ttftMs * MS);
    router.completed(
        routed, new Completion(status, ttftMs * MS, totalMs * MS, usage, ADDRESS, end));
  }

  private static Completion completed(long ttftMs, long totalMs, int completionTokens) {
    return new Completion(
        200,
        ttftMs * MS,
        totalMs * MS,
        new Usage(10, completionTokens, 0),
        ADDRESS,
        Completion.End.COMPLETED);
  }

  @Test
  void aStreamedResponseTeachesTtftAndTimePerOutputToken() {
    RouteOutcome.Routed routed = route(true);
    assertThat(routed.streamed()).isTrue();
    assertThat(routed.picked().prediction().predictedTpotSeconds()).isPositive();

    router.firstByte(routed, 200, ADDRESS, 80 * MS);
    router.completed(routed, completed(80, 80 + 99 * 12, 100));

    assertThat(scheduler.latencyModel().observations(ADDRESS)).isEqualTo(1);
    assertThat(scheduler.tpotModel().observations(ADDRESS)).isEqualTo(1);
    // 12 ms per token observed; the prediction was the analytic one
    double predicted = routed.picked().prediction().predictedTpotSeconds();
    assertThat(scheduler.tpotModel().mape(ADDRESS))
        .isCloseTo(
            Math.abs(predicted - 0.012) / 0.012, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void aNonStreamedResponseTeachesNoLatency() {
    // its first byte arrives with its last token: that is not a time to first token
    RouteOutcome.Routed routed = route(false);
    router.firstByte(routed, 200, ADDRESS, 1500 * MS);
    router.completed(routed, completed(1500, 1500, 100));
    assertThat(scheduler.latencyModel().observations(ADDRESS)).isZero();
    assertThat(scheduler.tpotModel().observations(ADDRESS)).isZero();
    assertThat(routed.picked().ticket().released()).isTrue();
  }

  @Test
  void withoutUsageOrAfterAnErrorOnlyWhatIsKnownIsLearned() {
    RouteOutcome.Routed noUsage = route(true);
    router.firstByte(noUsage, 200, ADDRESS, 90 * MS);
    router.completed(
        noUsage,
        new Completion(200, 90 * MS, 900 * MS, Usage.NONE, ADDRESS, Completion.End.COMPLETED));
    assertThat(scheduler.latencyModel().observations(ADDRESS)).isEqualTo(1);
    assertThat(scheduler.tpotModel().observations(ADDRESS)).isZero();

    answer(true, 500, 20, 30, Usage.NONE, Completion.End.COMPLETED);
    answer(true, 200, 90, 400, new Usage(10, 100, 0), Completion.End.CANCELLED);
    assertThat(scheduler.latencyModel().observations(ADDRESS)).isEqualTo(2);
    assertThat(scheduler.tpotModel().observations(ADDRESS)).isZero();
  }

  @Test
  void completedAnswersOfEitherKindTeachTheirLengthErrorsAndCutsDoNot() {
    for (int i = 0; i < 19; i++) {
      answer(i % 2 == 0, 200, 50, 500, new Usage(10, 1000, 0), Completion.End.COMPLETED);
    }
    assertThat(scheduler.meanAnswerTokens()).as("not known before 20 answers").isNaN();
    answer(true, 200, 50, 60, new Usage(10, 3, 0), Completion.End.CANCELLED);
    answer(false, 500, 20, 30, new Usage(10, 5, 0), Completion.End.COMPLETED);
    assertThat(scheduler.meanAnswerTokens()).isNaN();

    answer(false, 200, 500, 500, new Usage(10, 1000, 0), Completion.End.COMPLETED);
    assertThat(scheduler.meanAnswerTokens()).isEqualTo(1000.0);
  }
}
