package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.shadow.ShadowRouting;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Shadow mode through Envoy's message sequence: the picker decides but its reply names no
 * destination (header or {@code envoy.lb} metadata), learns the endpoint that served from {@code
 * envoy.lb/x-gateway-destination-endpoint-served} or, from a stock Envoy, the response header of
 * the same name (which it removes), moves the in-flight hold there, and counts agreement and its
 * TTFT prediction error.
 */
class ShadowModeTest {
  private static final long MS = 1_000_000L;
  private static final List<String> PODS = List.of("10.0.0.1:8000", "10.0.0.2:8000");

  private Fixture fx;
  private ShadowRouting shadow;

  @BeforeEach
  void setUp() throws Exception {
    fx =
        new Fixture(
            ExtProcSettings.DEFAULTS,
            null,
            ExtProcObserver.NOOP,
            PickerOptions.DEFAULTS.inShadow(),
            null,
            (r, inFlight) -> shadow = new ShadowRouting(r, inFlight));
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  /** Sends one streamed chat request; returns the pod the picker would have chosen. */
  private String decide(EnvoyReplay s) {
    s.requestBody(Replies.chat(Fixture.MODEL, "stream me", true), true);
    ProcessingResponse headers = s.next();
    s.next(); // the echoed body
    assertThat(headers.hasRequestHeaders()).isTrue();
    Map<String, String> set = Replies.setHeaders(headers.getRequestHeaders().getResponse());
    assertThat(set).doesNotContainKey("x-gateway-destination-endpoint");
    assertThat(set).containsEntry("x-gateway-model-name", Fixture.MODEL);
    assertThat(headers.hasDynamicMetadata()).as("no envoy.lb destination").isFalse();
    return PODS.stream()
        .filter(p -> fx.inFlight.load(p).liveRequests() == 1)
        .findFirst()
        .orElseThrow();
  }

  private void respond(EnvoyReplay s, String servedBy) {
    fx.clock.addAndGet(30 * MS);
    s.responseHeaders(200, false, servedBy);
    s.next();
    fx.clock.addAndGet(20 * MS);
    s.responseBody("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n", false);
    s.next();
    s.responseBody(
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n"
            + "data: [DONE]\n\n",
        true);
    s.next();
  }

  @Test
  void theBalancersChoiceIsFollowedAndCountedAsADifference() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    String pick = decide(s);
    String other = pick.equals(PODS.get(0)) ? PODS.get(1) : PODS.get(0);

    fx.clock.addAndGet(30 * MS);
    s.responseHeaders(200, false, other);
    s.next();
    assertThat(fx.inFlight.load(pick).liveRequests()).as("the pick released").isZero();
    assertThat(fx.inFlight.load(other).liveRequests()).as("the served pod holds it").isEqualTo(1);
    s.responseBody("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n", false);
    s.next();
    s.responseBody("data: [DONE]\n\n", true);
    s.next();

    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(shadow.stats().decisions()).isEqualTo(1);
    assertThat(shadow.stats().served()).isEqualTo(1);
    assertThat(shadow.stats().wouldDiffer()).isEqualTo(1);
    // the pick's prediction is not learned from another pod's response
    assertThat(fx.scheduler.latencyModel().observations(pick)).isZero();
    assertThat(fx.scheduler.latencyModel().observations(other)).isZero();
    Map<String, Object> report = shadow.report();
    assertThat(report).containsEntry("agreementRate", 0.0).containsEntry("wouldDifferRate", 1.0);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> recent = (List<Map<String, Object>>) report.get("recent");
    assertThat(recent)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r).containsEntry("pick", pick).containsEntry("served", other);
              assertThat((Double) r.get("ttftSeconds"))
                  .isCloseTo(0.03, org.assertj.core.data.Offset.offset(1e-9));
            });
  }

  @Test
  void agreementIsCountedAndItsPredictionErrorMeasured() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    String pick = decide(s);
    respond(s, pick);

    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(shadow.stats().served()).isEqualTo(1);
    assertThat(shadow.stats().wouldDiffer()).isZero();
    assertThat(shadow.report()).containsEntry("agreementRate", 1.0);
    assertThat(fx.scheduler.latencyModel().observations(pick)).isEqualTo(1);
    assertThat(shadow.stats().predicted()).isEqualTo(1);
    @SuppressWarnings("unchecked")
    Map<String, Object> error = (Map<String, Object>) shadow.report().get("ttftAbsRelativeError");
    assertThat((Double) error.get("p50")).isNotNull().isGreaterThanOrEqualTo(0.0);
    assertThat(error.get("mean")).isEqualTo(error.get("p50"));
  }

  @Test
  void aStockEnvoysServedHeaderIsLearnedFromAndRemovedBeforeTheClient() {
    // given a route that adds x-gateway-destination-endpoint-served: %UPSTREAM_HOST%
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    String pick = decide(s);
    String other = pick.equals(PODS.get(0)) ? PODS.get(1) : PODS.get(0);

    // when Envoy's balancer served another pod and said so in the response header
    fx.clock.addAndGet(30 * MS);
    s.responseHeadersServedInHeader(200, false, " " + other + " ");
    ProcessingResponse reply = s.next();

    // then the picker follows it and strips the header from the client's response
    assertThat(reply.hasResponseHeaders()).isTrue();
    assertThat(Replies.removedHeaders(reply.getResponseHeaders().getResponse()))
        .containsExactly("x-gateway-destination-endpoint-served");
    assertThat(fx.inFlight.load(other).liveRequests()).as("the served pod holds it").isEqualTo(1);
    s.responseBody("data: [DONE]\n\n", true);
    s.next();
    assertThat(shadow.stats().served()).isEqualTo(1);
    assertThat(shadow.stats().wouldDiffer()).isEqualTo(1);
  }

  @Test
  void theProxysMetadataWinsOverTheHeaderWhichIsStillRemoved() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    String pick = decide(s);
    String other = pick.equals(PODS.get(0)) ? PODS.get(1) : PODS.get(0);

    s.responseHeaders(200, false, pick, "x-gateway-destination-endpoint-served", other);
    ProcessingResponse reply = s.next();

    assertThat(Replies.removedHeaders(reply.getResponseHeaders().getResponse()))
        .containsExactly("x-gateway-destination-endpoint-served");
    assertThat(fx.inFlight.load(pick).liveRequests()).isEqualTo(1);
    s.responseBody("data: [DONE]\n\n", true);
    s.next();
    assertThat(shadow.stats().wouldDiffer()).isZero();
  }

  @Test
  void withoutTheServedHeaderNothingIsRemoved() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    decide(s);
    s.responseHeaders(200, false, null);
    ProcessingResponse reply = s.next();
    assertThat(Replies.removedHeaders(reply.getResponseHeaders().getResponse())).isEmpty();
    s.responseBody("data: [DONE]\n\n", true);
    s.next();
    assertThat(shadow.stats().served()).isZero();
  }

  @Test
  void withoutAServedReportNothingIsComparedAndTheHoldIsStillReleased() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    decide(s);
    respond(s, null);
    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(shadow.stats().decisions()).isEqualTo(1);
    assertThat(shadow.stats().served()).isZero();
    assertThat(shadow.report()).containsEntry("agreementRate", null);
  }
}
