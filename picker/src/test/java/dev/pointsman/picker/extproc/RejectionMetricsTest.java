package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.telemetry.DecisionLog;
import dev.pointsman.picker.telemetry.PickerMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.InstantSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every refused request is counted once in {@code inference_objective_request_error_total}. */
class RejectionMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private Fixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx =
        new Fixture(
            ExtProcSettings.DEFAULTS,
            null,
            new PickerMetrics(registry, new DecisionLog(16, InstantSource.system())));
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  private void send(String body, String... headers) {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false, headers);
    s.requestBody(body.getBytes(), true);
    assertThat(s.next().hasImmediateResponse()).isTrue();
    assertThat(s.awaitEnd()).isTrue();
  }

  private double errors(String status) {
    return registry
        .find("inference.objective.request.error")
        .tag("status", status)
        .counters()
        .stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  @Test
  void unknownModelIsCountedOnce() {
    send("{\"model\":\"gpt-nope\",\"messages\":[]}");
    assertThat(errors("404")).isEqualTo(1.0);
  }

  @Test
  void missingModelIsCountedOnce() {
    send("{\"messages\":[]}");
    assertThat(errors("400")).isEqualTo(1.0);
  }

  @Test
  void noReadyEndpointIsCountedOnce() {
    send("{\"model\":\"orphan\",\"prompt\":\"x\"}");
    assertThat(errors("503")).isEqualTo(1.0);
  }

  @Test
  void aShedRequestIsCountedOnce() {
    fx.saturateGpuA();
    send(
        new String(Replies.chat(Fixture.MODEL, "later", false)),
        "x-gateway-inference-objective",
        "batch");
    assertThat(errors("429")).isEqualTo(1.0);
  }

  @Test
  void aProtocolRejectionIsCountedOnce() {
    Replies.assertError(
        fx.stream().requestHeaders("POST", "/v1/chat/completions", true).next(), 400, null);
    assertThat(errors("400")).isEqualTo(1.0);
  }
}
