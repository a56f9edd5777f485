package dev.pointsman.inference.request;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.inference.error.RequestRejectedException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Taking string content out of the JSON parser's way ({@link ValueStrings}: prompt text decoded
 * straight into the extractor, content nobody reads skipped) changes nothing a caller sees: each
 * body gives the same request (prefix, length, token estimate, the model's byte span) or the same
 * rejection, reason and message, as the parser given and decoding every byte, however the body is
 * cut into chunks; and the content really does not reach the parser.
 *
 * <p>The byte offset in a message is compared where the parser reports it exactly: at a structural
 * error after content taken out. Inside a string the parser reports where its current run of input
 * began (the string's start when given whole), which depends on how the body was cut, with or
 * without taking out; those messages are compared without it.
 */
class ElisionTest {
  /**
   * A small kept prefix, so that the kept text ends inside and around escapes and wide characters.
   */
  private static final ParserLimits SMALL_PREFIX = new ParserLimits(1 << 20, 12, 16);

  private static final RequestParser DEFAULTS = RequestParser.withDefaults();
  private static final RequestParser SMALL = new RequestParser(SMALL_PREFIX);

  static Stream<String> bodies() {
    return Stream.of(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello there, a prompt"
            + " longer than twelve\"}]}",
        "{\"messages\":[{\"role\":\"system\",\"content\":\"abcdefghijklmnopqrstuvwxyz\"},"
            + "{\"role\":\"user\",\"content\":\"second\"}],\"model\":\"after\"}",
        // escapes and characters past U+FFFF across the cut, in the kept part and the rest
        "{\"model\":\"m\",\"prompt\":\"0123456789\\u00e9\\ud83d\\ude00\\n\\\"q\\\" \\/ \\\\ tail\"}",
        "{\"model\":\"m\",\"prompt\":\"01234567890\uD83D\uDE00\u00e9\u4e2d\u6587 and more text\"}",
        "{\"model\":\"m\",\"prompt\":[\"first string, long enough\",\"second\",\"third\"]}",
        "{\"model\":\"m\",\"input\":\"x\",\"instructions\":\"be brief and precise, always\"}",
        "{\"model\":\"m\",\"messages\":[{\"content\":[{\"type\":\"text\",\"text\":\"part one is"
            + " long\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,"
            + "iVBORw0KGgoAAAANSUhEUg\"}}]}]}",
        "{\"model\":\"m\",\"tools\":[{\"function\":{\"name\":\"f\",\"description\":\"a long"
            + " description \\u0041\"}}],\"prompt\":\"p\"}",
        "{\"model\":\"m\",\"user\":\"\",\"prompt\":\"\",\"stop\":[\"\\n\",\"\"]}",
        // refused inside content taken out: raw control characters, bad escapes
        "{\"model\":\"m\",\"prompt\":\"0123456789abcdefgh\nrest\"}",
        "{\"model\":\"m\",\"user\":\"abc\tdef\"}",
        "{\"model\":\"m\",\"prompt\":\"0123456789abcdefgh\\xrest\"}",
        "{\"model\":\"m\",\"user\":\"abc\\u12G4\"}",
        "{\"model\":\"m\",\"user\":\"abc\\u12\"}",
        "{\"model\":\"m\",\"user\":\"abc\\\"}",
        // cut short inside content taken out, and inside an escape there
        "{\"model\":\"m\",\"prompt\":\"0123456789abcdefghijk",
        "{\"model\":\"m\",\"user\":\"abc\\u00",
        "{\"model\":\"m\",\"user\":\"abc\\",
        // malformed around strings
        "{\"model\":\"m\",\"user\":\"abc\" \"def\"}",
        "{\"model\":\"m\",\"user\":\"abc\"}x",
        "{\"model\":\"m\",\"user\":[\"a\",\"b\"}",
        "{\"model\":\"m\" , \"messages\" : [ { \"content\" : \"spaced out content here\" } ] }  ");
  }

  @ParameterizedTest
  @MethodSource("bodies")
  void everyCutGivesWhatTheWholeParseGives(String body) {
    assertEveryCutAsWhole(body, false);
  }

  @ParameterizedTest
  @MethodSource("structuralErrorsAfterTakingOut")
  void anErrorAfterContentTakenOutIsReportedAtItsByte(String body) {
    assertEveryCutAsWhole(body, true);
  }

  /** Every cut, taking out, gives what the whole body gives without; {@code exact}: offsets too. */
  private static void assertEveryCutAsWhole(String body, boolean exact) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    for (RequestParser parser : List.of(SMALL, DEFAULTS)) {
      String expected = exactOutcome(parser, List.of(bytes), false);
      if (exact) {
        assertThat(expected).contains("(at byte ");
      }
      for (List<byte[]> chunks : Utf8Test.splits(bytes)) {
        String actual = exactOutcome(parser, chunks, true);
        assertThat(exact ? actual : withoutOffset(actual))
            .as("%s in %d chunks, prefix %d", body, chunks.size(), parser.limits().maxPrefixChars())
            .isEqualTo(exact ? expected : withoutOffset(expected));
      }
    }
  }

  static Stream<String> structuralErrorsAfterTakingOut() {
    return Stream.of(
        "{\"model\":\"m\",\"user\":\"a long unread value \\u00e9\\n\" x}",
        "{\"model\":\"m\",\"prompt\":\"0123456789abcdefghijklmnop\uD83D\uDE00\",,\"b\":1}",
        "{\"user\":\"unread unread unread\",\"model\":\"m\",\"prompt\":[\"k\",\"long long long\" 1]}");
  }

  /** A declared length only sizes the kept text: right, short, absurd or absent, same outcome. */
  @ParameterizedTest
  @MethodSource("corpus")
  void aDeclaredLengthChangesNothing(String name) {
    byte[] bytes = CorpusTest.corpus(name);
    for (RequestParser parser : List.of(SMALL, DEFAULTS)) {
      String expected = exactOutcome(parser, List.of(bytes), false);
      for (long declared : new long[] {bytes.length, 0, 7, Long.MAX_VALUE, -1}) {
        assertThat(exactOutcome(parser, chunks(bytes, 64), true, declared))
            .as("%s declared %d", name, declared)
            .isEqualTo(expected);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("corpus")
  void theCorpusParsesAsBefore(String name) {
    byte[] bytes = CorpusTest.corpus(name);
    for (RequestParser parser : List.of(SMALL, DEFAULTS)) {
      String expected = exactOutcome(parser, List.of(bytes), false);
      assertThat(exactOutcome(parser, List.of(bytes), true)).as(name).isEqualTo(expected);
      for (int size : new int[] {1, 7, 64, 4096}) {
        assertThat(exactOutcome(parser, chunks(bytes, size), true))
            .as("%s in chunks of %d", name, size)
            .isEqualTo(expected);
      }
    }
  }

  static Stream<String> corpus() {
    return Stream.of(
        "chat_image.json",
        "chat_model_after_huge_messages.json",
        "chat_model_not_first.json",
        "chat_stream.json",
        "chat_tools.json",
        "chat_unicode_escapes.json",
        "completions_prompt_array.json",
        "completions_prompt_string.json",
        "completions_tokens.json",
        "embeddings_input_array.json",
        "responses_instructions.json");
  }

  /** Random bodies of the shapes the extractor reads, with random string content. */
  @Test
  void randomBodiesParseAsBefore() {
    Random random = new Random(19);
    for (int n = 0; n < 3_000; n++) {
      byte[] bytes = randomBody(random).getBytes(StandardCharsets.UTF_8);
      for (RequestParser parser : List.of(SMALL, DEFAULTS)) {
        String expected = outcome(parser, List.of(bytes), false);
        int size = 1 + random.nextInt(Math.max(1, bytes.length));
        assertThat(outcome(parser, chunks(bytes, size), true))
            .as("%s in chunks of %d", new String(bytes, StandardCharsets.UTF_8), size)
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void aLongPromptNeverReachesTheParser() {
    String prompt = "The quick brown fox \\u00e9 jumps. ".repeat(7_000); // about 240 KB
    byte[] bytes =
        ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}")
            .getBytes(StandardCharsets.UTF_8);
    for (List<byte[]> chunks : List.of(List.of(bytes), chunks(bytes, 16 << 10))) {
      try (BodyAccumulator body = DEFAULTS.start(ApiKind.CHAT, true)) {
        chunks.forEach(body::feed);
        ParsedRequest request = body.finish();
        assertThat(body.bytesTakenOut())
            .as("bytes the parser never saw")
            .isGreaterThan(bytes.length - (ParserLimits.DEFAULT_MAX_PREFIX_CHARS + 1_000L) * 6 / 5);
        assertThat(request.promptChars()).isEqualTo(prompt.length() - 5L * 7_000);
        assertThat(request.promptPrefix()).hasSize(ParserLimits.DEFAULT_MAX_PREFIX_CHARS);
        assertThat(request.model()).isEqualTo("m");
      }
    }
    try (BodyAccumulator off = DEFAULTS.start(ApiKind.CHAT, false)) {
      off.feed(bytes);
      off.finish();
      assertThat(off.bytesTakenOut()).isZero();
    }
  }

  private static String randomBody(Random random) {
    List<String> members = new ArrayList<>();
    members.add("\"model\":" + randomString(random, 6));
    members.add(
        "\"messages\":[{\"role\":"
            + randomString(random, 5)
            + ",\"content\":"
            + randomString(random, 40)
            + "},{\"content\":[{\"type\":\"text\",\"text\":"
            + randomString(random, 30)
            + "}]}]");
    members.add("\"prompt\":[" + randomString(random, 20) + "," + randomString(random, 20) + "]");
    members.add("\"instructions\":" + randomString(random, 25));
    members.add("\"user\":" + randomString(random, 15));
    members.add("\"stream\":true");
    for (int i = 0; i < members.size(); i++) {
      int j = random.nextInt(members.size());
      String t = members.get(i);
      members.set(i, members.get(j));
      members.set(j, t);
    }
    String body = "{" + String.join(",", members.subList(0, 1 + random.nextInt(members.size())));
    return random.nextInt(10) > 0 ? body + "}" : body;
  }

  private static final String[] PIECES = {
    "a",
    "b",
    " ",
    "xyz",
    "\u00e9",
    "\u4e2d",
    "\uD83D\uDE00",
    "\\n",
    "\\\"",
    "\\\\",
    "\\/",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\t",
    "\\b"
  };

  private static final String[] BAD = {"\n", "\t", "\u0001", "\\x", "\\u12G4", "\\u0", "\\"};

  private static String randomString(Random random, int maxPieces) {
    StringBuilder s = new StringBuilder("\"");
    int n = random.nextInt(maxPieces + 1);
    for (int i = 0; i < n; i++) {
      s.append(
          random.nextInt(200) == 0
              ? BAD[random.nextInt(BAD.length)]
              : PIECES[random.nextInt(PIECES.length)]);
    }
    return s.append('"').toString();
  }

  private static List<byte[]> chunks(byte[] bytes, int size) {
    List<byte[]> chunks = new ArrayList<>();
    for (int from = 0; from < bytes.length; from += size) {
      byte[] chunk = new byte[Math.min(size, bytes.length - from)];
      System.arraycopy(bytes, from, chunk, 0, chunk.length);
      chunks.add(chunk);
    }
    return chunks;
  }

  /** What a caller sees: the request, or the rejection's reason and message (less its offset). */
  private static String outcome(RequestParser parser, List<byte[]> chunks, boolean elide) {
    return withoutOffset(exactOutcome(parser, chunks, elide));
  }

  private static String withoutOffset(String outcome) {
    return outcome.replaceFirst(" \\(at byte \\d+\\)", "");
  }

  private static String exactOutcome(RequestParser parser, List<byte[]> chunks, boolean elide) {
    return exactOutcome(parser, chunks, elide, -1);
  }

  private static String exactOutcome(
      RequestParser parser, List<byte[]> chunks, boolean elide, long declared) {
    try (BodyAccumulator body = parser.start(ApiKind.CHAT, elide).expectLength(declared)) {
      chunks.forEach(body::feed);
      return body.finish().toString();
    } catch (RequestRejectedException e) {
      return e.reason() + ": " + e.getMessage();
    }
  }
}
