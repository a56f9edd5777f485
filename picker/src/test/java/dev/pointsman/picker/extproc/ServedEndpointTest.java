package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When Envoy reports that a fallback served the request ({@code envoy.lb} / {@code
 * x-gateway-destination-endpoint-served}), the in-flight hold and the latency learning follow the
 * endpoint that served, not the primary.
 */
class ServedEndpointTest {
  private static final long MS = 1_000_000L;
  private Fixture fx;
  private EnvoyReplay s;
  private String primary;
  private String fallback;

  @BeforeEach
  void setUp() throws Exception {
    fx = new Fixture(ExtProcSettings.DEFAULTS);
    fx.fallbacks(1);
    s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat(Fixture.MODEL, "stream me", true), true);
    ProcessingResponse headers = s.next();
    s.next();
    primary =
        Replies.setHeaders(headers.getRequestHeaders().getResponse())
            .get("x-gateway-destination-endpoint");
    fallback = primary.equals("10.0.0.1:8000") ? "10.0.0.2:8000" : "10.0.0.1:8000";
    assertThat(fx.inFlight.load(primary).liveRequests()).isEqualTo(1);
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  @Test
  void aRetryOnTheFallbackMovesTheHoldAndTheLearningToTheFallback() {
    fx.clock.addAndGet(30 * MS);
    s.responseHeaders(200, false, fallback);
    s.next();
    assertThat(fx.inFlight.load(primary).liveRequests()).as("primary released").isZero();
    assertThat(fx.inFlight.load(primary).prefillRequests()).isZero();
    assertThat(fx.inFlight.load(fallback).liveRequests()).as("fallback holds it").isEqualTo(1);
    assertThat(fx.inFlight.load(fallback).prefillRequests()).isEqualTo(1);

    fx.clock.addAndGet(10 * MS);
    s.responseBody("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n", false);
    s.next();
    assertThat(fx.inFlight.load(fallback).prefillRequests()).isZero();
    s.responseBody("data: [DONE]\n\n", true);
    s.next();

    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(fx.scheduler.latencyModel().observations(fallback)).isEqualTo(1);
    assertThat(fx.scheduler.latencyModel().observations(primary)).isZero();
  }

  @Test
  void theServedPrimaryKeepsItsHold() {
    s.responseHeaders(200, false, primary);
    s.next();
    assertThat(fx.inFlight.load(primary).liveRequests()).isEqualTo(1);
    assertThat(fx.inFlight.load(fallback).liveRequests()).isZero();
    s.responseBody("data: x\n\n", true);
    s.next();
    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(fx.scheduler.latencyModel().observations(primary)).isEqualTo(1);
  }

  @Test
  void anEndpointThatWasNotPickedReleasesThePrimaryAndTeachesNothing() {
    s.responseHeaders(200, false, "10.7.7.7:8000");
    s.next();
    assertThat(fx.inFlight.load(primary).liveRequests()).isZero();
    s.responseBody("data: x\n\n", true);
    s.next();
    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(fx.scheduler.latencyModel().observations(primary)).isZero();
    assertThat(fx.scheduler.latencyModel().observations(fallback)).isZero();
  }
}
