package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.pointsman.inference.error.RequestRejectedException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ChunkedFeedTest {
  private final RequestParser parser = RequestParser.withDefaults();

  static Stream<byte[]> bodies() {
    return Stream.of(
        CorpusTest.corpus("chat_unicode_escapes.json"),
        CorpusTest.corpus("chat_stream.json"),
        CorpusTest.corpus("completions_tokens.json"),
        CorpusTest.corpus("responses_instructions.json"),
        "{\"prompt\":\"h\u00e9llo \u65e5\u672c \uD83D\uDE00\",\"model\":\"m\",\"max_tokens\":9}"
            .getBytes(UTF_8));
  }

  @ParameterizedTest
  @MethodSource("bodies")
  void everySplitPointGivesTheWholeResult(byte[] body) {
    ParsedRequest whole = parser.parse("/v1/chat/completions", body);

    for (int split = 0; split <= body.length; split++) {
      BodyAccumulator acc = parser.start("/v1/chat/completions");
      acc.feed(body, 0, split);
      acc.feed(body, split, body.length - split);

      assertThat(acc.finish()).as("split at %d", split).isEqualTo(whole);
    }
  }

  @ParameterizedTest
  @MethodSource("bodies")
  void byteByByteGivesTheWholeResult(byte[] body) {
    BodyAccumulator acc = parser.start("/v1/chat/completions");
    for (int i = 0; i < body.length; i++) {
      acc.feed(new byte[] {body[i]});
    }

    assertThat(acc.finish()).isEqualTo(parser.parse("/v1/chat/completions", body));
  }

  @ParameterizedTest
  @MethodSource("bodies")
  void everyTruncationIsRejected(byte[] body) {
    for (int cut = 0; cut < lastNonSpace(body); cut++) {
      BodyAccumulator acc = parser.start("/v1/chat/completions");
      acc.feed(body, 0, cut);

      RequestRejectedException e =
          catchThrowableOfType(RequestRejectedException.class, acc::finish);
      assertThat(e).as("cut at %d", cut).isNotNull();
      assertThat(e.httpStatus()).isEqualTo(400);
    }
  }

  private static int lastNonSpace(byte[] body) {
    int end = body.length;
    while (end > 0 && Character.isWhitespace(body[end - 1])) {
      end--;
    }
    return end;
  }
}
