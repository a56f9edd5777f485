package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ExtractionTest {
  private final RequestParser parser = RequestParser.withDefaults();

  private ParsedRequest parse(String json) {
    return parser.parse("/v1/chat/completions", json.getBytes(UTF_8));
  }

  @Test
  void absentModelIsNull() {
    assertThat(parse("{\"prompt\":\"x\"}").model()).isNull();
  }

  @Test
  void noPromptMeansNoTokens() {
    ParsedRequest r = parse("{\"model\":\"m\"}");

    assertThat(r.promptPrefix()).isEmpty();
    assertThat(r.estimatedPromptTokens()).isZero();
  }

  @Test
  void anyTextCountsAtLeastOneToken() {
    assertThat(parse("{\"prompt\":\"\"}").estimatedPromptTokens()).isEqualTo(1);
    assertThat(parse("{\"prompt\":\"abcde\"}").estimatedPromptTokens()).isEqualTo(2);
  }

  @Test
  void maxCompletionTokensWinsOverMaxTokensWhateverTheOrder() {
    assertThat(parse("{\"max_completion_tokens\":5,\"max_tokens\":9}").maxOutputTokens())
        .isEqualTo(OptionalInt.of(5));
    assertThat(parse("{\"max_tokens\":9,\"max_completion_tokens\":5}").maxOutputTokens())
        .isEqualTo(OptionalInt.of(5));
    assertThat(parse("{\"max_tokens\":-1}").maxOutputTokens()).isEmpty();
    assertThat(parse("{\"max_tokens\":99999999999}").maxOutputTokens())
        .isEqualTo(OptionalInt.of(Integer.MAX_VALUE));
    assertThat(parse("{\"max_tokens\":1.5}").maxOutputTokens()).isEmpty();
  }

  @Test
  void unknownAndNestedFieldsAreSkipped() {
    ParsedRequest r =
        parse(
            "{\"x\":{\"messages\":[{\"content\":\"no\"}],\"model\":\"no\"},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"yes\",\"extra\":{\"content\":\"no\"}}],"
                + "\"logit_bias\":{\"50256\":-100},\"model\":\"m\"}");

    assertThat(r.model()).isEqualTo("m");
    assertThat(r.promptPrefix()).isEqualTo("yes");
  }

  @Test
  void textPartsWhateverTheKeyOrder() {
    ParsedRequest r =
        parse(
            "{\"messages\":[{\"content\":[{\"text\":\"a\",\"type\":\"text\"},"
                + "{\"type\":\"input_audio\",\"input_audio\":{\"data\":\"AAAA\",\"format\":\"wav\"}},"
                + "{\"type\":\"input_text\",\"text\":\"b\"}]}]}");

    assertThat(r.promptPrefix()).isEqualTo("a\nb");
  }

  @Test
  void embeddingsTokenInputs() {
    assertThat(parse("{\"input\":[1,2,3]}").estimatedPromptTokens()).isEqualTo(3);
    assertThat(parse("{\"input\":[[1,2],[3,4,5]]}").estimatedPromptTokens()).isEqualTo(5);
    assertThat(parse("{\"input\":\"hello world!\"}").estimatedPromptTokens()).isEqualTo(3);
  }

  @Test
  void streamNeedsABoolean() {
    assertThat(parse("{\"stream\":\"true\"}").stream()).isFalse();
    assertThat(parse("{\"stream\":true,\"stream_options\":null}").includeUsage()).isFalse();
  }
}
