package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.inference.error.RequestRejectedException;
import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Content taken out straight from the chunk ({@link BodyScan.Handoff}, {@link
 * ValueStrings#takeOutUnchecked}) is checked as the scan would have checked it: an ill-formed or
 * cut character, an escape cut by the chunk, separators a chunk ends with, inside prompt text and
 * content nobody reads, give exactly what the parser decoding every byte gives, message and offset
 * included, at every cut.
 */
class ScanHandoffTest {
  private static final RequestParser SMALL = new RequestParser(new ParserLimits(1 << 20, 12, 16));
  private static final RequestParser DEFAULTS = RequestParser.withDefaults();

  /** Where a sequence is put: before and after it, in content the parser does not decode. */
  private static final List<String[]> PLACES =
      List.of(
          new String[] {"{\"model\":\"m\",\"prompt\":\"0123456789abc ", " tail\"}"},
          new String[] {"{\"model\":\"m\",\"prompt\":\"x\\n\\u00e9, ", "\"}"},
          new String[] {"{\"user\":\"unread, ", ",\",\"model\":\"m\"}"},
          new String[] {"{\"messages\":[{\"content\":\"a\\\\", "b  \"}],\"model\":\"m\"}"});

  static Stream<String> sequences() {
    return Stream.of(
        "C3 A9", // well-formed, 2 to 4 bytes
        "E6 97 A5",
        "F0 9F 98 80",
        "C0 AF", // ill-formed
        "E0 80 AF",
        "ED A0 80",
        "F4 90 80 80",
        "F5 80 80 80",
        "80",
        "FF",
        "C3", // cut
        "E2 82",
        "F0 9F 98",
        "C3 28",
        "5C C3 A9", // after a backslash: an escape the parser refuses
        "5C E0 80",
        "5C 75 31 C3 A9", // inside a \\u escape
        "5C 75 31 FF",
        "5C 75 30 30 65 39", // a whole escape
        "20 2C 3A 20", // separators
        "0A", // a raw control character
        "5C");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sequences")
  void everyCutGivesWhatTheParserDecodingEveryByteGives(String hex) {
    byte[] sequence = HexFormat.ofDelimiter(" ").parseHex(hex.toLowerCase());
    for (String[] place : PLACES) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes(place[0].getBytes(UTF_8));
      out.writeBytes(sequence);
      out.writeBytes(place[1].getBytes(UTF_8));
      byte[] body = out.toByteArray();
      for (RequestParser parser : List.of(SMALL, DEFAULTS)) {
        String expected = outcome(parser, List.of(body), false);
        for (List<byte[]> chunks : Utf8Test.splits(body)) {
          assertThat(outcome(parser, chunks, true))
              .as("%s in %s in %d chunks", hex, new String(body, UTF_8), chunks.size())
              .isEqualTo(expected);
        }
      }
    }
  }

  private static String outcome(RequestParser parser, List<byte[]> chunks, boolean elide) {
    try (BodyAccumulator body = parser.start(ApiKind.COMPLETIONS, elide)) {
      chunks.forEach(body::feed);
      return body.finish().toString();
    } catch (RequestRejectedException e) {
      String message = e.getMessage();
      // inside a string the parser's offset depends on the cuts (see ElisionTest); the UTF-8
      // check's does not
      return e.reason()
          + ": "
          + (message.contains("not valid UTF-8")
              ? message
              : message.replaceFirst(" \\(at byte \\d+\\)", ""));
    }
  }
}
