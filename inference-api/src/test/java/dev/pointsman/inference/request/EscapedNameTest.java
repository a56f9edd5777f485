package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Escaped surrogate pairs, as Python's json.dumps writes every character past U+FFFF, in member
 * names (which Jackson's non-blocking parser refused as invalid UTF-8; found by
 * ModelRewriteFuzzTest) and in values (whose text is kept), at every chunk cut.
 */
class EscapedNameTest {
  private static final RequestParser PARSER = RequestParser.withDefaults();

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"\\uD83D\\uDE00\":1,\"model\":\"m\"} | m | ''",
        "{\"model\":\"m\",\"tools\":[{\"parameters\":{\"properties\":{\"x\\ud83d\\ude00\":{}}}}]} | m"
            + " | ''",
        "{\"\\uDB40\\uDC00\":null,\"model\":\"m\",\"prompt\":\"a\\uD83D\\uDE00b\"} | m | a\uD83D\uDE00b",
        "{\"prompt\":\"x\\\",{\\\"\\uD83D\\uDE00\\\":\", \"\\uD83D\\uDE00\":[\"\\uD83D\"], \"model\":\"m\"}"
            + " | m | x\",{\"\uD83D\uDE00\":",
        "{\"input\":[\"\\uD83D\\uDE00\"],\"\\uD800\":1,\"model\":\"m\"} | m | \uD83D\uDE00",
      })
  void namesWithEscapedSurrogatesAreAcceptedAndValuesKeepThem(
      String body, String model, String prompt) {
    for (List<byte[]> chunks : Utf8Test.splits(body.getBytes(UTF_8))) {
      ParsedRequest parsed = parse(chunks);
      assertThat(parsed.model()).as("%s in %d chunks", body, chunks.size()).isEqualTo(model);
      assertThat(parsed.promptPrefix()).isEqualTo(prompt);
    }
  }

  private static ParsedRequest parse(List<byte[]> chunks) {
    try (BodyAccumulator acc = PARSER.start("/v1/completions")) {
      for (byte[] chunk : chunks) {
        acc.feed(chunk);
      }
      return acc.finish();
    }
  }
}
