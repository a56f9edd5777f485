package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestParserErrorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final RequestParser parser =
      new RequestParser(new ParserLimits(4096, ParserLimits.DEFAULT_MAX_PREFIX_CHARS, 8));

  static Stream<Arguments> badBodies() {
    return Stream.of(
        bad("{\"model\": }", RejectReason.MALFORMED_JSON, 400, "invalid_json"),
        bad("{\"model\":\"m\",}", RejectReason.MALFORMED_JSON, 400, "invalid_json"),
        bad("{'model':'m'}", RejectReason.MALFORMED_JSON, 400, "invalid_json"),
        bad("", RejectReason.EMPTY_BODY, 400, "invalid_json"),
        bad("   \n ", RejectReason.EMPTY_BODY, 400, "invalid_json"),
        bad("[{\"model\":\"m\"}]", RejectReason.NOT_OBJECT, 400, "invalid_json"),
        bad("\"just a string\"", RejectReason.NOT_OBJECT, 400, "invalid_json"),
        bad("42", RejectReason.NOT_OBJECT, 400, "invalid_json"),
        bad("null", RejectReason.NOT_OBJECT, 400, "invalid_json"),
        bad("{\"model\":\"m\",\"messages\":[", RejectReason.TRUNCATED, 400, "invalid_json"),
        bad(
            "{\"model\":\"m\",\"messages\":[{\"content\":\"hel",
            RejectReason.TRUNCATED,
            400,
            "invalid_json"),
        bad("{\"model\":\"m\"", RejectReason.TRUNCATED, 400, "invalid_json"),
        bad("{\"model\":\"m\",\"stream\":tr", RejectReason.TRUNCATED, 400, "invalid_json"),
        bad("{\"model\":\"m\"} {}", RejectReason.MALFORMED_JSON, 400, "invalid_json"),
        bad("{\"model\":\"m\"} x", RejectReason.MALFORMED_JSON, 400, "invalid_json"),
        bad("{\"a\":[[[[[[[[[1]]]]]]]]]}", RejectReason.TOO_DEEP, 400, "invalid_json"),
        bad(
            "{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":{\"f\":{\"g\":{\"h\":{}}}}}}}}}",
            RejectReason.TOO_DEEP,
            400,
            "invalid_json"),
        bad("{\"model\":42}", RejectReason.MODEL_NOT_STRING, 400, "invalid_model"),
        bad("{\"model\":[\"m\"]}", RejectReason.MODEL_NOT_STRING, 400, "invalid_model"),
        bad("{\"model\":{\"id\":\"m\"}}", RejectReason.MODEL_NOT_STRING, 400, "invalid_model"),
        bad("{\"model\":true}", RejectReason.MODEL_NOT_STRING, 400, "invalid_model"),
        // OpenAI rejects a null model; taking it as absent made a default model be inserted
        // beside it, a body with two 'model' keys.
        bad(
            "{\"model\":null,\"prompt\":\"x\"}",
            RejectReason.MODEL_NOT_STRING,
            400,
            "invalid_model"),
        bad(
            "{\"prompt\":\"x\", \"model\" : null }",
            RejectReason.MODEL_NOT_STRING,
            400,
            "invalid_model"),
        bad("{\"model\":\"\"}", RejectReason.EMPTY_MODEL, 400, "invalid_model"),
        bad("{\"model\":\"  \"}", RejectReason.EMPTY_MODEL, 400, "invalid_model"),
        bad(
            "{\"model\":\"" + "m".repeat(1025) + "\"}",
            RejectReason.MODEL_TOO_LONG,
            400,
            "invalid_model"),
        bad("{\"p\":\"" + "x".repeat(5000) + "\"}", RejectReason.TOO_LARGE, 413, "body_too_large"));
  }

  private static Arguments bad(String body, RejectReason reason, int status, String code) {
    return Arguments.of(body.getBytes(UTF_8), reason, status, code);
  }

  @ParameterizedTest
  @MethodSource("badBodies")
  void rejectsBadBodies(byte[] body, RejectReason reason, int status, String code)
      throws Exception {
    RequestRejectedException e =
        catchThrowableOfType(
            RequestRejectedException.class, () -> parser.parse("/v1/chat/completions", body));

    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.httpStatus()).isEqualTo(status);
    JsonNode error = JSON.readTree(e.error().toJson()).get("error");
    assertThat(error.get("code").asText()).isEqualTo(code);
    assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
    assertThat(error.get("message").asText()).isNotBlank().hasSizeLessThan(400);
  }

  static Stream<byte[]> invalidUtf8() {
    return Stream.of(
        new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, '"', '}'},
        new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xc3, 'x', '"', '}'},
        new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"', '}'},
        new byte[] {'{', '"', (byte) 0xfe, '"', ':', '1', '}'});
  }

  @ParameterizedTest
  @MethodSource("invalidUtf8")
  void rejectsInvalidUtf8(byte[] body) {
    assertThatThrownBy(() -> parser.parse("/v1/completions", body))
        .isInstanceOfSatisfying(
            RequestRejectedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(RejectReason.INVALID_UTF8);
              assertThat(e.httpStatus()).isEqualTo(400);
              assertThat(e.reason().label()).isEqualTo("invalid_utf8");
            });
  }

  @ParameterizedTest
  @MethodSource("dev.pointsman.inference.request.RequestParserErrorTest#contentTypes")
  void checksContentType(String contentType, boolean accepted) {
    if (accepted) {
      RequestParser.checkContentType(contentType);
    } else {
      assertThatThrownBy(() -> RequestParser.checkContentType(contentType))
          .isInstanceOfSatisfying(
              RequestRejectedException.class,
              e -> {
                assertThat(e.httpStatus()).isEqualTo(415);
                assertThat(e.reason()).isEqualTo(RejectReason.BAD_CONTENT_TYPE);
                assertThat(e.error().code()).isEqualTo("unsupported_media_type");
              });
    }
  }

  static Stream<Arguments> contentTypes() {
    return Stream.of(
        Arguments.of(null, true),
        Arguments.of("", true),
        Arguments.of("application/json", true),
        Arguments.of("application/json; charset=utf-8", true),
        Arguments.of("Application/JSON;charset=\"UTF-8\"", true),
        Arguments.of("application/vnd.openai+json", true),
        Arguments.of("text/plain", false),
        Arguments.of("application/x-www-form-urlencoded", false),
        Arguments.of("multipart/form-data; boundary=x", false),
        Arguments.of("application/json; charset=latin1", false));
  }
}
