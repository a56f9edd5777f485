package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.pointsman.extproc.BodyMode;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.routing.Routing;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every refusal is an immediate response with an OpenAI error body, never a gRPC error. */
class ErrorResponsesTest {
  private Fixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx =
        new Fixture(
            new ExtProcSettings(
                BodyMode.FULL_DUPLEX_STREAMED, BodyMode.FULL_DUPLEX_STREAMED, 100_000, 62_000));
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  private ProcessingResponse send(String body) {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(body.getBytes(), true);
    ProcessingResponse r = s.next();
    assertThat(s.awaitEnd()).as("the stream is completed cleanly after an error").isTrue();
    return r;
  }

  @Test
  void malformedJsonIs400() {
    Replies.assertError(send("{\"model\": \"llama-3-8b\", "), 400, null);
    Replies.assertError(send("[1,2]"), 400, null);
    Replies.assertError(send("{\"model\": 42}"), 400, null);
    assertThat(fx.observer.rejected).hasSize(3).allMatch(r -> r.endsWith(":400"));
  }

  @Test
  void missingModelIs400AndUnknownModelIs404ListingServedModels() {
    Replies.assertError(send("{\"messages\":[]}"), 400, null);
    JsonNode body =
        Replies.assertError(send("{\"model\":\"gpt-nope\",\"messages\":[]}"), 404, null);
    assertThat(body.path("error").path("message").asText())
        .contains("llama-3-8b")
        .contains("gpt-nope");
  }

  @Test
  void bodyOverTheLimitIs413AsSoonAsTheLimitIsPassed() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    byte[] start = ("{\"model\":\"llama-3-8b\",\"prompt\":\"" + "a".repeat(60_000)).getBytes();
    s.requestBody(start, false);
    assertThat(s.drainNow()).isEmpty();
    s.requestBody("b".repeat(60_000).getBytes(), false);
    Replies.assertError(s.next(), 413, null);
    assertThat(s.awaitEnd()).isTrue();
    assertThat(fx.observer.rejected).containsExactly("too_large:413");
  }

  @Test
  void nonJsonContentTypeIs415() {
    EnvoyReplay s =
        fx.stream()
            .requestHeaders("POST", "/v1/chat/completions", false, "content-type", "text/plain");
    Replies.assertError(s.next(), 415, null);
  }

  @Test
  void noReadyEndpointIs503() {
    ProcessingResponse r = send("{\"model\":\"orphan\",\"prompt\":\"x\"}");
    Replies.assertError(r, 503, "no_ready_endpoint");
    // no model server saw it: a fleet Envoy in front may resend it to another cluster
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry("x-pointsman-not-started", "true");
  }

  @Test
  void aClientErrorIsNotMarkedForAnotherCluster() {
    ProcessingResponse r = send("{\"model\": 42}");
    Replies.assertError(r, 400, null);
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .doesNotContainKey("x-pointsman-not-started");
  }

  @Test
  void sheddableRequestOnASaturatedPoolIs429WithRetryAfter() {
    fx.saturateGpuA();
    EnvoyReplay s =
        fx.stream()
            .requestHeaders(
                "POST", "/v1/chat/completions", false, "x-gateway-inference-objective", "batch");
    s.requestBody(Replies.chat(Fixture.MODEL, "later", false), true);
    ProcessingResponse r = s.next();
    Replies.assertError(r, 429, "pool_saturated");
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry("retry-after", "1")
        .containsEntry("x-pointsman-not-started", "true");

    EnvoyReplay critical = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    critical.requestBody(Replies.chat(Fixture.MODEL, "now", false), true);
    assertThat(critical.next().hasRequestHeaders()).as("critical requests are never shed").isTrue();
  }

  @Test
  void aSheddableModelIsShedOnASaturatedPoolWithoutAnyObjective() {
    fx.saturateGpuA();

    Replies.assertError(
        send(new String(Replies.chat(Fixture.SHEDDABLE_MODEL, "later", false))),
        429,
        "pool_saturated");
    EnvoyReplay critical = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    critical.requestBody(Replies.chat(Fixture.MODEL, "now", false), true);
    assertThat(critical.next().hasRequestHeaders())
        .as("the same pool still takes a model that may not be shed")
        .isTrue();
  }

  @Test
  void aMalformedTpotObjectiveIs400AndCounted() {
    for (String bad : new String[] {"fast", "-5", "0", "NaN", "1e12"}) {
      EnvoyReplay s =
          fx.stream().requestHeaders("POST", "/v1/chat/completions", false, "x-slo-tpot-ms", bad);
      s.requestBody(Replies.chat(Fixture.MODEL, "hi", false), true);
      ProcessingResponse r = s.next();
      Replies.assertError(r, 400, "invalid_slo_header");
      assertThat(r.getImmediateResponse().getBody().toStringUtf8()).contains("x-slo-tpot-ms");
    }
    assertThat(fx.observer.rejected).contains("bad_slo_header:400");
    assertThat(fx.inFlight.liveRequests()).isZero();

    EnvoyReplay ok =
        fx.stream().requestHeaders("POST", "/v1/chat/completions", false, "x-slo-tpot-ms", "50");
    ok.requestBody(Replies.chat(Fixture.MODEL, "hi", false), true);
    assertThat(ok.next().hasRequestHeaders()).isTrue();
  }

  @Test
  void bodilessModelsListIsAnsweredByThePicker() throws Exception {
    EnvoyReplay s = fx.stream().requestHeaders("GET", "/v1/models", true);
    ProcessingResponse r = s.next();
    assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(200);
    JsonNode list =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(r.getImmediateResponse().getBody().toStringUtf8());
    assertThat(list.path("object").asText()).isEqualTo("list");
    assertThat(list.path("data").findValuesAsText("id")).contains("llama-3-8b", "sql-lora");
  }

  @Test
  void otherBodilessRequestsGetA4xx() {
    Replies.assertError(fx.stream().requestHeaders("GET", "/v1/unknown", true).next(), 404, null);
    Replies.assertError(
        fx.stream().requestHeaders("POST", "/v1/chat/completions", true).next(), 400, null);
  }

  @Test
  void subsetHintRestrictsTheChoiceAndAnEmptyOneIs503() {
    for (int i = 0; i < 10; i++) {
      EnvoyReplay s =
          fx.stream()
              .requestHeaders(
                  "POST", "/v1/chat/completions", false, subset(List.of("10.0.0.2:8000")));
      s.requestBody(Replies.chat(Fixture.MODEL, "subset " + i, false), true);
      assertThat(Replies.setHeaders(s.next().getRequestHeaders().getResponse()))
          .containsEntry("x-gateway-destination-endpoint", "10.0.0.2:8000");
    }
    EnvoyReplay s =
        fx.stream()
            .requestHeaders(
                "POST", "/v1/chat/completions", false, subset(List.of("10.9.9.9:8000")));
    s.requestBody(Replies.chat(Fixture.MODEL, "nowhere", false), true);
    Replies.assertError(s.next(), 503, null);
  }

  private static Metadata subset(List<String> addresses) {
    ListValue.Builder list = ListValue.newBuilder();
    addresses.forEach(a -> list.addValues(Value.newBuilder().setStringValue(a)));
    return Metadata.newBuilder()
        .putFilterMetadata(
            "envoy.lb.subset_hint",
            Struct.newBuilder()
                .putFields(
                    "x-gateway-destination-endpoint-subset",
                    Value.newBuilder().setListValue(list).build())
                .build())
        .build();
  }

  @Test
  void aFailureInsideThePickerIsA500NotAGrpcError() throws Exception {
    Routing broken =
        new Routing() {
          @Override
          public RouteOutcome route(RouteInput input) {
            throw new IllegalStateException("boom");
          }

          @Override
          public void completed(RouteOutcome.Routed routed, dev.pointsman.extproc.Completion c) {}

          @Override
          public String modelsJson() {
            return "{}";
          }

          @Override
          public String modelJson(String id) {
            return "{}";
          }
        };
    try (Fixture f = new Fixture(ExtProcSettings.DEFAULTS, broken)) {
      EnvoyReplay s = f.stream().requestHeaders("POST", "/v1/chat/completions", false);
      s.requestBody(Replies.chat(Fixture.MODEL, "x", false), true);
      Replies.assertError(s.next(), 500, "internal");
      assertThat(s.awaitEnd()).isTrue();
      assertThat(s.status()).isNull();
    }
  }
}
