package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.shadow.ShadowRouting;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Shadow mode with {@code destination: balancer}: a balancer in front of the gateway names its
 * endpoint in a request header; the picker routes there (header and {@code envoy.lb} metadata) when
 * it is one of its candidates, compares it with its own pick, and names no destination otherwise.
 */
class ShadowBalancerDestinationTest {
  private static final String HEADER = "x-balancer-endpoint";

  private final io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
      new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
  private Fixture fx;
  private ShadowRouting shadow;

  @BeforeEach
  void setUp() throws Exception {
    fx =
        new Fixture(
            ExtProcSettings.DEFAULTS,
            null,
            new dev.pointsman.picker.telemetry.PickerMetrics(
                registry,
                new dev.pointsman.picker.telemetry.DecisionLog(
                    16, java.time.InstantSource.system())),
            PickerOptions.DEFAULTS.inShadow(HEADER),
            null,
            (r, inFlight) -> shadow = new ShadowRouting(r, inFlight));
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  private ProcessingResponse send(EnvoyReplay s) {
    s.requestBody(Replies.chat(Fixture.MODEL, "route me", true), true);
    ProcessingResponse headers = s.next();
    s.next(); // the echoed body
    return headers;
  }

  private void finish(EnvoyReplay s) {
    s.responseHeaders(200, false, null);
    s.next();
    s.responseBody("data: [DONE]\n\n", true);
    s.next();
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.1:8000", "10.0.0.2:8000"})
  void theBalancersCandidateIsTheDestinationAndWhatServed(String chosen) {
    EnvoyReplay s =
        fx.stream().requestHeaders("POST", "/v1/chat/completions", false, HEADER, " " + chosen);
    ProcessingResponse headers = send(s);

    Map<String, String> set = Replies.setHeaders(headers.getRequestHeaders().getResponse());
    assertThat(set).containsEntry("x-gateway-destination-endpoint", chosen);
    assertThat(Replies.destinationMetadata(headers)).isEqualTo(chosen);
    assertThat(fx.inFlight.load(chosen).liveRequests()).as("held where it goes").isEqualTo(1);
    assertThat(fx.observer.ignoredBalancerChoices.get()).isZero();

    finish(s); // the proxy reports no served endpoint: the destination served
    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(shadow.stats().decisions()).isEqualTo(1);
    assertThat(shadow.stats().served()).isEqualTo(1);
    @SuppressWarnings("unchecked")
    Map<String, Object> last =
        ((java.util.List<Map<String, Object>>) shadow.report().get("recent")).get(0);
    assertThat(last).containsEntry("served", chosen);
    assertThat(shadow.stats().wouldDiffer()).isEqualTo(last.get("pick").equals(chosen) ? 0 : 1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.9.9.9:8000", "evil.example:443", ""})
  void anythingButACandidateNamesNoDestination(String value) {
    EnvoyReplay s =
        value.isEmpty()
            ? fx.stream().requestHeaders("POST", "/v1/chat/completions", false)
            : fx.stream().requestHeaders("POST", "/v1/chat/completions", false, HEADER, value);
    ProcessingResponse headers = send(s);

    assertThat(Replies.setHeaders(headers.getRequestHeaders().getResponse()))
        .doesNotContainKey("x-gateway-destination-endpoint");
    assertThat(headers.hasDynamicMetadata()).isFalse();
    finish(s);
    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(shadow.stats().served()).as("nothing reported, nothing compared").isZero();
    // a value that is not a candidate is counted; no header at all is not
    assertThat(fx.observer.ignoredBalancerChoices.get()).isEqualTo(value.isEmpty() ? 0 : 1);
    var counter = registry.find("pointsman.shadow.balancer.ignored").counter();
    assertThat(counter == null ? 0.0 : counter.count()).isEqualTo(value.isEmpty() ? 0.0 : 1.0);
  }

  @Test
  void theDestinationIsChargedOnceWhateverTheProxyReports() {
    EnvoyReplay s =
        fx.stream().requestHeaders("POST", "/v1/chat/completions", false, HEADER, "10.0.0.1:8000");
    send(s);
    s.responseHeaders(200, false, "10.0.0.1:8000");
    s.next();
    assertThat(fx.inFlight.load("10.0.0.1:8000").liveRequests()).isEqualTo(1);
    s.responseBody("data: [DONE]\n\n", true);
    s.next();
    assertThat(fx.inFlight.liveRequests()).isZero();
    assertThat(shadow.stats().served()).as("counted once").isEqualTo(1);
  }
}
