package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A streamed response teaches its time to first token at its first byte, as the benchmark does, not
 * at the end of the stream; a non-streamed response gives up its prefill hold at its response
 * headers and teaches no TTFT.
 */
class FirstByteLearningTest {
  private static final long MS = 1_000_000L;
  private Fixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new Fixture(ExtProcSettings.DEFAULTS);
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  private String route(EnvoyReplay s, boolean stream) {
    s.requestBody(Replies.chat(Fixture.MODEL, "time me", stream), true);
    String destination =
        Replies.setHeaders(s.next().getRequestHeaders().getResponse())
            .get("x-gateway-destination-endpoint");
    s.next();
    return destination;
  }

  @Test
  void aStreamedResponseTeachesTtftAtItsFirstByte() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    String destination = route(s, true);
    s.responseHeaders(200, false, null);
    s.next();
    assertThat(fx.scheduler.latencyModel().observations(destination)).isZero();

    fx.clock.addAndGet(40 * MS);
    s.responseBody("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n", false);
    s.next();
    assertThat(fx.scheduler.latencyModel().observations(destination))
        .as("learned at the first byte, while the stream is still open")
        .isEqualTo(1);
    assertThat(fx.inFlight.load(destination).liveRequests()).isEqualTo(1);

    fx.clock.addAndGet(500 * MS);
    s.responseBody("data: [DONE]\n\n", true);
    s.next();
    assertThat(fx.scheduler.latencyModel().observations(destination))
        .as("not learned a second time at the end")
        .isEqualTo(1);
    assertThat(fx.inFlight.liveRequests()).isZero();
  }

  @Test
  void aFailedStreamedResponseTeachesNothing() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    String destination = route(s, true);
    s.responseHeaders(500, false, null);
    s.next();
    s.responseBody("{\"error\":{}}", true);
    s.next();
    assertThat(fx.scheduler.latencyModel().observations(destination)).isZero();
  }

  @Test
  void aNonStreamedResponseReleasesItsPrefillHoldAtItsHeadersAndTeachesNoTtft() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    String destination = route(s, false);
    assertThat(fx.inFlight.load(destination).prefillRequests()).isEqualTo(1);

    fx.clock.addAndGet(900 * MS);
    s.responseHeaders(200, false, null);
    s.next();
    assertThat(fx.inFlight.load(destination).prefillRequests())
        .as("prefill is over once the response headers arrive")
        .isZero();
    assertThat(fx.inFlight.load(destination).liveRequests()).isEqualTo(1);

    s.responseBody("{\"choices\":[]}", true);
    s.next();
    assertThat(fx.scheduler.latencyModel().observations(destination)).isZero();
    assertThat(fx.inFlight.liveRequests()).isZero();
  }
}
