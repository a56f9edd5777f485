package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.testing.Await;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Replays Envoy's FULL_DUPLEX_STREAMED message sequences and checks the exact replies. */
class FullDuplexProtocolTest {
  private Fixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new Fixture(ExtProcSettings.DEFAULTS);
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  @Test
  void holdsTheHeadersReplyUntilTheBodyEndsThenRoutesAndEchoesTheBody() {
    byte[] body = Replies.chat(Fixture.MODEL, "hello there, how are you today?", false);
    EnvoyReplay s =
        fx.stream()
            .requestHeaders(
                "POST",
                "/v1/chat/completions",
                false,
                "content-type",
                "application/json",
                "x-request-id",
                "req-1");
    s.requestBody(java.util.Arrays.copyOfRange(body, 0, 20), false);
    s.requestBody(java.util.Arrays.copyOfRange(body, 20, 40), false);
    assertThat(s.drainNow()).as("nothing is answered before the body ends").isEmpty();

    s.requestBody(java.util.Arrays.copyOfRange(body, 40, body.length), true);
    List<ProcessingResponse> replies = s.next(2);

    ProcessingResponse headers = replies.get(0);
    assertThat(headers.hasRequestHeaders()).isTrue();
    CommonResponse common = headers.getRequestHeaders().getResponse();
    assertThat(common.getClearRouteCache()).isTrue();
    Map<String, String> set = Replies.setHeaders(common);
    String destination = set.get("x-gateway-destination-endpoint");
    assertThat(destination).isIn("10.0.0.1:8000", "10.0.0.2:8000");
    assertThat(set)
        .containsEntry("x-gateway-model-name", Fixture.MODEL)
        .doesNotContainKey("x-request-id");
    assertThat(Replies.destinationMetadata(headers)).isEqualTo(destination);

    StreamedBodyResponse echoed = Replies.echoedChunk(replies.get(1));
    assertThat(echoed.getBody()).isEqualTo(ByteString.copyFrom(body));
    assertThat(echoed.getEndOfStream()).isTrue();
    assertThat(fx.inFlight.load(destination).liveRequests()).isEqualTo(1);
  }

  @Test
  void echoesAMegabyteBodyInOrderInChunksOfAtMost62000Bytes() throws Exception {
    String filler = "x".repeat(1_000_000);
    byte[] body = Replies.chat(Fixture.MODEL, filler, false);
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBodyChunked(body, 16_384);

    ProcessingResponse headers = s.next();
    assertThat(headers.hasRequestHeaders()).isTrue();
    ByteArrayOutputStream echoed = new ByteArrayOutputStream();
    boolean end = false;
    int chunks = 0;
    while (!end) {
      StreamedBodyResponse chunk = Replies.echoedChunk(s.next());
      assertThat(chunk.getBody().size()).isLessThanOrEqualTo(62_000);
      chunk.getBody().writeTo(echoed);
      end = chunk.getEndOfStream();
      chunks++;
    }
    assertThat(echoed.toByteArray()).isEqualTo(body);
    assertThat(chunks).isEqualTo((body.length + 61_999) / 62_000);
    assertThat(s.drainNow()).isEmpty();
  }

  @Test
  void ignoresADuplicateEndOfStreamChunk() {
    byte[] body = Replies.chat(Fixture.MODEL, "hi", false);
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(body, true);
    s.next(2);
    s.requestBody(new byte[0], true);
    assertThat(s.drainNow()).isEmpty();
    assertThat(fx.observer.decisions).hasSize(1);
  }

  @Test
  void passesAnSseResponseThroughChunkByChunkAndReadsUsage() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat(Fixture.MODEL, "stream me", true), true);
    String destination =
        Replies.setHeaders(s.next().getRequestHeaders().getResponse())
            .get("x-gateway-destination-endpoint");
    s.next();

    s.responseHeaders(200, false, destination);
    assertThat(s.next().hasResponseHeaders()).isTrue();
    fx.clock.addAndGet(40_000_000L);
    String first = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n";
    s.responseBody(first, false);
    ProcessingResponse r1 = s.next();
    assertThat(fx.inFlight.load(destination).prefillRequests())
        .as("the first byte ends the request's outstanding prefill")
        .isZero();
    assertThat(fx.inFlight.load(destination).liveRequests()).isEqualTo(1);
    assertThat(
            r1.getResponseBody()
                .getResponse()
                .getBodyMutation()
                .getStreamedResponse()
                .getBody()
                .toStringUtf8())
        .as("the first SSE event is passed on before the next arrives")
        .isEqualTo(first);
    fx.clock.addAndGet(10_000_000L);
    String last =
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":1,"
            + "\"total_tokens\":13,\"prompt_tokens_details\":{\"cached_tokens\":8}}}\n\ndata: [DONE]\n\n";
    s.responseBody(last, true);
    StreamedBodyResponse r2 =
        s.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse();
    assertThat(r2.getEndOfStream()).isTrue();

    assertThat(fx.observer.completions).hasSize(1);
    Completion c = fx.observer.completions.get(0);
    assertThat(c.status()).isEqualTo(200);
    assertThat(c.ttftNanos()).isEqualTo(40_000_000L);
    assertThat(c.totalNanos()).isEqualTo(50_000_000L);
    assertThat(c.usage().promptTokens()).isEqualTo(12);
    assertThat(c.usage().cachedTokens()).isEqualTo(8);
    assertThat(c.servedBy()).isEqualTo(destination);
    assertThat(c.end()).isEqualTo(Completion.End.COMPLETED);
    assertThat(fx.inFlight.liveRequests()).as("released when the response ends").isZero();
  }

  @Test
  void cancelMidStreamReleasesTheInFlightHoldOnce() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat(Fixture.MODEL, "cancel me", true), true);
    s.next(2);
    s.responseHeaders(200, false, null);
    s.next();
    assertThat(fx.inFlight.liveRequests()).isEqualTo(1);
    s.cancel();
    Await.until("the hold is released", () -> fx.inFlight.liveRequests() == 0);
    Await.until("the stream end is seen", () -> !fx.observer.ends.isEmpty());
    assertThat(fx.observer.ends).containsExactly("cancelled");
    assertThat(fx.observer.completions)
        .singleElement()
        .extracting(Completion::end)
        .isEqualTo(Completion.End.CANCELLED);
  }

  @Test
  void cancelBeforeTheBodyEndsRoutesNothing() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody("{\"model\":".getBytes(), false);
    s.cancel();
    Await.until("the stream end is seen", () -> !fx.observer.ends.isEmpty());
    assertThat(fx.observer.decisions).isEmpty();
    assertThat(fx.inFlight.liveRequests()).isZero();
  }

  @Test
  void aBodyEndedByTrailersIsRoutedThenTrailersAreAnswered() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat(Fixture.MODEL, "with trailers", false), false);
    s.requestTrailers();
    List<ProcessingResponse> replies = s.next(3);
    assertThat(replies.get(0).hasRequestHeaders()).isTrue();
    assertThat(Replies.echoedChunk(replies.get(1)).getEndOfStream()).isFalse();
    assertThat(replies.get(2).hasRequestTrailers()).isTrue();
  }

  @Test
  void generatesARequestIdWhenAbsent() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat(Fixture.MODEL, "hi", false), true);
    Map<String, String> set = Replies.setHeaders(s.next().getRequestHeaders().getResponse());
    assertThat(set.get("x-request-id")).matches("[0-9a-f-]{36}");
  }

  @Test
  void everyPickedRequestIsReleasedExactlyOnceHoweverItsStreamEnds() {
    for (int i = 0; i < 30; i++) {
      EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
      s.requestBody(Replies.chat(Fixture.MODEL, "n" + i, true), true);
      s.next(2);
      switch (i % 3) {
        case 0 -> {
          s.responseHeaders(200, false, null);
          s.next();
          s.responseBody("data: [DONE]\n\n", true);
          s.next();
          s.halfClose();
        }
        case 1 -> s.cancel();
        default -> {
          s.responseHeaders(200, false, null);
          s.next();
          s.cancel();
        }
      }
    }
    Await.until("every stream ended", () -> fx.observer.ends.size() == 30);
    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(fx.observer.completions).hasSize(30);
  }

  @Test
  void anAliasIsRewrittenToTheServedNameInTheEchoedBody() {
    byte[] body = Replies.chat("llama", "hi", false);
    EnvoyReplay s =
        fx.stream()
            .requestHeaders(
                "POST",
                "/v1/chat/completions",
                false,
                "content-length",
                Integer.toString(body.length));
    s.requestBody(body, true);
    Map<String, String> set = Replies.setHeaders(s.next().getRequestHeaders().getResponse());
    String echoed = Replies.echoedChunk(s.next()).getBody().toStringUtf8();
    assertThat(echoed).isEqualTo(new String(body).replace("\"llama\"", "\"llama-3-8b\""));
    assertThat(set).containsEntry("content-length", Integer.toString(echoed.length()));
    assertThat(set).containsEntry("x-gateway-model-name", Fixture.MODEL);
  }

  @Test
  void aBodyThatAlreadyNamesTheServedModelIsEchoedUnchangedWithoutContentLength() {
    byte[] body = Replies.chat(Fixture.MODEL, "hi", false);
    EnvoyReplay s =
        fx.stream()
            .requestHeaders(
                "POST",
                "/v1/chat/completions",
                false,
                "content-length",
                Integer.toString(body.length));
    s.requestBody(body, true);
    assertThat(Replies.setHeaders(s.next().getRequestHeaders().getResponse()))
        .doesNotContainKey("content-length");
    assertThat(Replies.echoedChunk(s.next()).getBody().toByteArray()).isEqualTo(body);
  }
}
