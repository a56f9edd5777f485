package dev.pointsman.picker.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.testing.Await;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** The decision log shows each decision and keeps nothing of the request beyond that. */
class DecisionLogTest {
  private final RequestParser parser = new RequestParser(ParserLimits.defaults());

  private RouteInput input(String id, String prompt) {
    String body =
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
    ParsedRequest parsed =
        parser.parse("/v1/chat/completions", body.getBytes(StandardCharsets.UTF_8));
    return new RouteInput(id, parsed, "default", null);
  }

  private static RouteOutcome.Rejected refused() {
    return new RouteOutcome.Rejected(
        OpenAiError.of(RejectReason.UNKNOWN_MODEL, "no such model"), "unknown_model", 0, null);
  }

  @Test
  void showsTheDecisionWithoutKeepingTheRequestAlive() {
    DecisionLog log = new DecisionLog(4, InstantSource.fixed(Instant.EPOCH));
    RouteInput input = input("req-1", "a long prompt ".repeat(10_000));
    WeakReference<ParsedRequest> body = new WeakReference<>(input.body());

    log.record(input, refused(), 12_000);
    input = null; // the request has ended: only the log could still hold it

    DecisionRecord shown = log.recent().get(0);
    assertThat(shown.requestId()).isEqualTo("req-1");
    assertThat(shown.model()).isEqualTo("m");
    assertThat(shown.result()).isEqualTo("unknown_model");
    Await.until(
        "the request's parsed body is collected",
        () -> {
          System.gc();
          return body.get() == null;
        });
  }

  @Test
  void keepsTheNewestDecisionsUpToItsSize() {
    DecisionLog log = new DecisionLog(2, InstantSource.fixed(Instant.EPOCH));
    for (int i = 1; i <= 3; i++) {
      log.record(input("req-" + i, "hi"), refused(), 1_000);
    }
    assertThat(log.recent())
        .extracting(DecisionRecord::requestId)
        .containsExactly("req-3", "req-2");
  }
}
