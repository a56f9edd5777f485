package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.extproc.BodyMode;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.inference.request.InferencePaths;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Only the inference API is routed: every other path, and any path not in normal form, is refused
 * at the request headers, before the body is read, without a routing decision, counted once. The
 * paths are sent as a client wrote them, as an Envoy that did not normalise would pass them on.
 */
class RoutedPathsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private Fixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new Fixture(ExtProcSettings.DEFAULTS, null, Fixture.MODEL);
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  /** The bypasses, with the status Envoy's normalisation (or our refusal) gives them. */
  static Stream<Arguments> bypasses() {
    return Stream.of(
        Arguments.of("/v1/load_lora_adapter", 404),
        Arguments.of("/v1/unload_lora_adapter", 404),
        Arguments.of("/v1/../admin/faults", 404),
        Arguments.of("/admin/faults", 404),
        Arguments.of("/metrics", 404),
        Arguments.of("//v1/load_lora_adapter", 404),
        Arguments.of("/v1/%2e%2e/admin/faults", 404),
        Arguments.of("/v1/chat/completions/../../metrics", 404),
        Arguments.of("/v1/chat/completions/../../v1/load_lora_adapter", 404),
        Arguments.of("/v1/./chat/completions", 404),
        Arguments.of("/v1/%63hat/completions", 404),
        Arguments.of("/v1\\chat\\completions", 404),
        Arguments.of("/v1\\..\\admin\\faults", 404),
        Arguments.of("\\v1\\load_lora_adapter", 404),
        Arguments.of("/v1/chat%2Fcompletions", 400),
        Arguments.of("/v1/completions/..%2f..%2fadmin/faults", 400),
        Arguments.of("/v1/chat/completions%5C..%5C..%5Cmetrics", 400),
        Arguments.of("/v1/chat/completions#x", 400));
  }

  @ParameterizedTest(name = "POST {0} → {1}")
  @MethodSource("bypasses")
  void aBypassIsRefusedAtTheHeadersWithoutARoutingDecision(String path, int status) {
    EnvoyReplay s =
        fx.stream().requestHeaders("POST", path, false, "content-type", "application/json");

    JsonNode error =
        Replies.assertError(s.next(), status, status == 404 ? "unknown_path" : "invalid_path");

    assertThat(error.path("error").path("type").asText())
        .isEqualTo(status == 404 ? "not_found_error" : "invalid_request_error");
    assertThat(s.awaitEnd()).isTrue();
    assertThat(fx.observer.decisions).as("never routed").isEmpty();
    assertThat(fx.observer.rejected)
        .as("counted once")
        .containsExactly((status == 404 ? "unknown_path:" : "invalid_path:") + status);
  }

  @Test
  void aDefaultModelNeverMakesANonInferenceBodyRoutable() {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/load_lora_adapter", false);
    s.requestBody("{\"lora_name\":\"evil\",\"lora_path\":\"/tmp/x\"}".getBytes(), true);

    Replies.assertError(s.next(), 404, "unknown_path");
    assertThat(fx.observer.decisions).isEmpty();

    EnvoyReplay chat = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    chat.requestBody("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}".getBytes(), true);
    assertThat(chat.next().hasRequestHeaders()).as("the default model still serves chat").isTrue();
  }

  @Test
  void aBodilessGetOfAnInferencePathIs404AndABodilessPostIs400() {
    Replies.assertError(
        fx.stream().requestHeaders("GET", "/v1/chat/completions", true).next(), 404, null);
    Replies.assertError(
        fx.stream().requestHeaders("POST", "/v1/chat/completions", true).next(),
        400,
        "missing_body");
    Replies.assertError(fx.stream().requestHeaders("GET", "/metrics", true).next(), 404, null);
  }

  @Test
  void aGetWithABodyToAnotherPathIsNotRouted() {
    EnvoyReplay s = fx.stream().requestHeaders("GET", "/metrics", false);
    Replies.assertError(s.next(), 404, "unknown_path");
    assertThat(fx.observer.decisions).isEmpty();
  }

  @Test
  void theListingNamesAliasesAndRetrieveAnswersOneModel() throws Exception {
    JsonNode list = body(fx.stream().requestHeaders("GET", "/v1/models", true).next(), 200);
    JsonNode alias = body(fx.stream().requestHeaders("GET", "/v1/models/llama", true).next(), 200);
    JsonNode adapter =
        body(fx.stream().requestHeaders("GET", "/v1/models/sql-lora", true).next(), 200);
    ProcessingResponse unknown =
        fx.stream().requestHeaders("GET", "/v1/models/gpt-4o", true).next();

    assertThat(list.path("data").findValuesAsText("id"))
        .containsExactly(Fixture.SHEDDABLE_MODEL, "llama", "llama-3-8b", "orphan", "sql-lora");
    assertThat(alias.path("id").asText()).isEqualTo("llama");
    assertThat(alias.path("object").asText()).isEqualTo("model");
    assertThat(alias.path("root").asText()).isEqualTo(Fixture.MODEL);
    assertThat(adapter.path("parent").asText()).isEqualTo(Fixture.MODEL);
    Replies.assertError(unknown, 404, "model_not_found");
    assertThat(fx.observer.rejected).containsExactly("unknown_model:404");
    assertThat(fx.observer.decisions).isEmpty();
  }

  @Test
  void headIsAnsweredWithoutABody() {
    for (String path : List.of("/v1/models", "/v1/models/llama")) {
      ImmediateResponse r =
          fx.stream().requestHeaders("HEAD", path, true).next().getImmediateResponse();

      assertThat(r.getStatus().getCodeValue()).as(path).isEqualTo(200);
      assertThat(r.getBody().isEmpty()).as(path).isTrue();
      assertThat(Replies.setHeaders(r)).containsEntry("content-type", "application/json");
    }
    ImmediateResponse unknown =
        fx.stream().requestHeaders("HEAD", "/v1/models/gpt-4o", true).next().getImmediateResponse();
    assertThat(unknown.getStatus().getCodeValue()).isEqualTo(404);
    assertThat(unknown.getBody().isEmpty()).isTrue();
    assertThat(fx.observer.rejected).containsExactly("unknown_model:404");
  }

  @Test
  void theListingIsAnsweredEvenWhenABodyFollowsAndInBufferedMode() throws Exception {
    try (Fixture buffered =
        new Fixture(new ExtProcSettings(BodyMode.BUFFERED, BodyMode.NONE, 1 << 20, 62_000), null)) {
      JsonNode list =
          body(buffered.stream().requestHeaders("GET", "/v1/models", false).next(), 200);
      assertThat(list.path("object").asText()).isEqualTo("list");
    }
  }

  @Test
  void anOperatorsExtraPathIsRoutedAndTheDefaultsNoLonger() throws Exception {
    ExtProcSettings settings =
        new ExtProcSettings(
            BodyMode.FULL_DUPLEX_STREAMED,
            BodyMode.FULL_DUPLEX_STREAMED,
            1 << 20,
            62_000,
            InferencePaths.of(List.of("/v1/chat/completions", "/v1/rerank")));
    try (Fixture f = new Fixture(settings, null)) {
      EnvoyReplay rerank = f.stream().requestHeaders("POST", "/v1/rerank", false);
      rerank.requestBody(
          "{\"model\":\"llama-3-8b\",\"query\":\"q\",\"documents\":[\"a\"]}".getBytes(), true);
      assertThat(rerank.next().hasRequestHeaders()).isTrue();
      Replies.assertError(
          f.stream().requestHeaders("POST", "/v1/completions", false).next(), 404, null);
    }
  }

  private static JsonNode body(ProcessingResponse r, int status) throws Exception {
    assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(status);
    return JSON.readTree(r.getImmediateResponse().getBody().toString(StandardCharsets.UTF_8));
  }
}
