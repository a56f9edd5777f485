package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.BodyMode;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Replays Envoy's BUFFERED message sequences. */
class BufferedProtocolTest {
  private Fixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new Fixture(new ExtProcSettings(BodyMode.BUFFERED, BodyMode.BUFFERED, 1 << 20, 62_000));
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  @Test
  void continuesHeadersAtOnceAndRoutesOnTheBodyReply() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/completions", false);
    ProcessingResponse headers = s.next();
    assertThat(headers.hasRequestHeaders()).isTrue();
    assertThat(headers.getRequestHeaders().hasResponse()).isFalse();

    s.requestBody("{\"model\":\"llama-3-8b\",\"prompt\":\"Once upon a time\"}".getBytes(), true);
    ProcessingResponse body = s.next();
    assertThat(body.hasRequestBody()).isTrue();
    CommonResponse common = body.getRequestBody().getResponse();
    assertThat(common.getClearRouteCache()).isTrue();
    assertThat(common.hasBodyMutation()).as("buffered: the body is left as it is").isFalse();
    Map<String, String> set = Replies.setHeaders(common);
    assertThat(set.get("x-gateway-destination-endpoint")).isIn("10.0.0.1:8000", "10.0.0.2:8000");
    assertThat(Replies.destinationMetadata(body))
        .isEqualTo(set.get("x-gateway-destination-endpoint"));
  }

  @Test
  void bufferedResponseBodyIsContinuedNotStreamed() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/completions", false);
    s.next();
    s.requestBody("{\"model\":\"llama-3-8b\",\"prompt\":\"x\"}".getBytes(), true);
    s.next();
    s.responseHeaders(200, false, null);
    assertThat(s.next().hasResponseHeaders()).isTrue();
    s.responseBody("{\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":5}}", true);
    ProcessingResponse r = s.next();
    assertThat(r.hasResponseBody()).isTrue();
    assertThat(r.getResponseBody().getResponse().hasBodyMutation()).isFalse();
    assertThat(fx.observer.completions)
        .singleElement()
        .satisfies(c -> assertThat(c.usage().completionTokens()).isEqualTo(5));
    assertThat(fx.inFlight.liveRequests()).isZero();
  }

  @Test
  void anErrorInBufferedModeIsAnImmediateResponse() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/completions", false);
    s.next();
    s.requestBody("{\"prompt\":\"no model\"}".getBytes(), true);
    Replies.assertError(s.next(), 400, null);
    assertThat(s.awaitEnd()).isTrue();
  }
}
