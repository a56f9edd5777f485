package dev.pointsman.inference.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class OpenAiErrorTest {
  @Test
  void rendersTheOpenAiShapeWithEscaping() {
    OpenAiError error = new OpenAiError(400, "bad \"model\"\n", "invalid_request_error", null);

    assertThat(error.toJson())
        .isEqualTo(
            "{\"error\":{\"message\":\"bad \\\"model\\\"\\n\","
                + "\"type\":\"invalid_request_error\",\"code\":null}}");
  }

  @Test
  void reasonsMapToStatusTypeAndCode() {
    assertThat(OpenAiError.of(RejectReason.TOO_LARGE, "m"))
        .isEqualTo(new OpenAiError(413, "m", "invalid_request_error", "body_too_large"));
    assertThat(OpenAiError.of(RejectReason.UNKNOWN_MODEL, "m").type()).isEqualTo("not_found_error");
    assertThat(OpenAiError.typeFor(429)).isEqualTo("rate_limit_error");
    assertThat(Arrays.stream(RejectReason.values()).map(RejectReason::label))
        .contains("malformed_json", "not_object", "truncated", "invalid_utf8", "too_deep")
        .contains("model_not_string", "empty_model", "missing_model", "unknown_model")
        .contains("too_large", "bad_content_type")
        .allMatch(label -> label.matches("[a-z0-9_]+"));
  }

  @Test
  void rejectsNonErrorStatus() {
    assertThatThrownBy(() -> new OpenAiError(200, "m", "t", null))
        .hasMessage("httpStatus: 200 (expected 400..599)");
  }
}
