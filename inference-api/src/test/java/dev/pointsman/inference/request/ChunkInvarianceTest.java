package dev.pointsman.inference.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A body is accepted or refused, and for the same reason, however it is cut into chunks: the inputs
 * here are findings of the fuzz tests (extproc's BodyParserFuzzTest) where it was not so.
 */
class ChunkInvarianceTest {
  private static final RequestParser PARSER = RequestParser.withDefaults();

  @ParameterizedTest(name = "{0}")
  @MethodSource("sameRejection")
  void theReasonDoesNotDependOnTheChunks(String hex, byte[] body) {
    RejectReason whole = reason(List.of(body));
    for (List<byte[]> chunks : Utf8Test.splits(body)) {
      assertThat(reason(chunks)).as("%s in %d chunks", hex, chunks.size()).isEqualTo(whole);
    }
  }

  static Stream<Arguments> sameRejection() {
    return Stream.of(
            "0A 0A EF", // a cut character after whitespace: invalid_utf8, not malformed_json
            "0A C3 A9", // a whole one where no value may start: malformed_json
            "7B 22 61 22 3A 74 C3", // {"a":t then a cut character
            "7B 7D C3 A9", // {} then a character after the object
            "78 E0 80 80", // bad JSON before bad UTF-8: malformed_json
            "7B 22 61 22 3A 22 E0 80 80 22 7D", // bad UTF-8 inside a string: invalid_utf8
            // Byte-order marks: Jackson took one after whitespace only when fed apart, and threw
            // an internal error (a RuntimeException) on the first of these.
            "0A EF BB BF 0A 1F EF",
            "20 EF BB BF 7B 7D",
            "EF BB BF 7B 7D",
            "7B 7D 0A EF BB BF",
            "7B 7D 20 78",
            "30 2E 37 2E FF", // a root-level number: not_object whole, malformed byte by byte
            "2D 31 20 7B 7D",
            "20 78 7B 7D")
        .map(hex -> Arguments.of(hex, HexFormat.ofDelimiter(" ").parseHex(hex.toLowerCase())));
  }

  /** Jackson accepted these when a chunk ended between the separator and the brace. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("danglingSeparators")
  void aNameOrValueMustFollowASeparatorAtEveryCut(String body) {
    for (List<byte[]> chunks :
        Utf8Test.splits(body.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
      assertThat(reason(chunks))
          .as("%s in %d chunks", body, chunks.size())
          .isEqualTo(RejectReason.MALFORMED_JSON);
    }
  }

  static Stream<String> danglingSeparators() {
    return Stream.of(
        "{\"a\": }",
        "{\"model\": }",
        "{\"a\" : }",
        "{\"a\":\t}",
        "{\"a\":1, }",
        "{\"a\":1 ,}",
        "{\"a\":1,\n}",
        "{\"messages\":[{\"content\":\"x\", }]}",
        "{\"a\":1,,\"b\":2}");
  }

  private static RejectReason reason(List<byte[]> chunks) {
    RequestRejectedException e =
        catchThrowableOfType(RequestRejectedException.class, () -> parse(chunks));
    return e == null ? null : e.reason();
  }

  private static ParsedRequest parse(List<byte[]> chunks) {
    try (BodyAccumulator acc = PARSER.start("/v1/chat/completions")) {
      for (byte[] chunk : chunks) {
        acc.feed(chunk);
      }
      return acc.finish();
    }
  }
}
