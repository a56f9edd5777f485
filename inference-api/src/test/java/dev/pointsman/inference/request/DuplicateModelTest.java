package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A body with two top-level {@code model} members is refused: the parser took the last and only it
 * was rewritten, so a backend that takes the first saw another model than the one routed.
 */
class DuplicateModelTest {
  private static final String PATH = "/v1/chat/completions";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final RequestParser parser = RequestParser.withDefaults();

  static Stream<byte[]> duplicates() {
    return Stream.of(
            "{\"model\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"model\":\"b\"}",
            "{\"model\":\"a\",\"model\":\"a\"}",
            "{ \"model\" : \"a\" , \"stream\":true, \"model\" : \"b\" }",
            "{\"model\":\"a\",\"mod\\u0065l\":\"b\"}",
            "{\"prompt\":\"x\",\"model\":\"a\",\"max_tokens\":3,\"model\":\"a\",\"model\":\"c\"}")
        .map(s -> s.getBytes(UTF_8));
  }

  @ParameterizedTest
  @MethodSource("duplicates")
  void twoTopLevelModelsAreRefusedWhole(byte[] body) throws Exception {
    RequestRejectedException e =
        catchThrowableOfType(RequestRejectedException.class, () -> parser.parse(PATH, body));

    assertThat(e).isNotNull();
    assertThat(e.reason()).isEqualTo(RejectReason.DUPLICATE_MODEL);
    assertThat(e.httpStatus()).isEqualTo(400);
    JsonNode error = JSON.readTree(e.error().toJson()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
    assertThat(error.get("code").asText()).isEqualTo("duplicate_model");
    assertThat(error.get("message").asText()).contains("model");
  }

  @ParameterizedTest
  @MethodSource("duplicates")
  void twoTopLevelModelsAreRefusedAtEverySplitAndByteByByte(byte[] body) {
    for (int split = 0; split <= body.length; split++) {
      int cut = split;
      BodyAccumulator acc = parser.start(PATH);
      RequestRejectedException s =
          catchThrowableOfType(
              RequestRejectedException.class,
              () -> {
                acc.feed(body, 0, cut);
                acc.feed(body, cut, body.length - cut);
                acc.finish();
              });
      assertThat(s).as("split at %d", split).isNotNull();
      assertThat(s.reason()).as("split at %d", split).isEqualTo(RejectReason.DUPLICATE_MODEL);
    }
    BodyAccumulator bytewise = parser.start(PATH);
    RequestRejectedException e =
        catchThrowableOfType(
            RequestRejectedException.class,
            () -> {
              for (byte b : body) {
                bytewise.feed(new byte[] {b});
              }
              bytewise.finish();
            });
    assertThat(e).isNotNull();
    assertThat(e.reason()).isEqualTo(RejectReason.DUPLICATE_MODEL);
  }

  static Stream<byte[]> singleTopLevelModel() {
    return Stream.of(
            "{\"model\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\",\"model\":\"x\"}]}",
            "{\"model\":\"a\",\"metadata\":{\"model\":\"b\"},\"tools\":[{\"model\":\"c\"}]}",
            "{\"models\":\"b\",\"model\":\"a\",\"model_name\":\"c\"}")
        .map(s -> s.getBytes(UTF_8));
  }

  @ParameterizedTest
  @MethodSource("singleTopLevelModel")
  void modelKeysInsideValuesAreNotDuplicates(byte[] body) {
    assertThat(parser.parse(PATH, body).model()).isEqualTo("a");
  }
}
