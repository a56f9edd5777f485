package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PrometheusTextParserTest {

  private final PrometheusTextParser parser = PrometheusTextParser.all();

  @Test
  void parsesNamesWithColonsLabelsAndValues() {
    ParseResult result =
        parser.parse(
            """
            # HELP vllm:num_requests_waiting Waiting.
            # TYPE vllm:num_requests_waiting gauge
            vllm:num_requests_waiting{engine="0",model_name="m"} 3.0
            """);

    assertThat(result.skippedLines()).isZero();
    assertThat(result.samples())
        .containsExactly(
            new Sample("vllm:num_requests_waiting", Map.of("engine", "0", "model_name", "m"), 3.0));
  }

  @Test
  void parsesEmptyAndAbsentLabelSetsAndTimestamps() {
    ParseResult result = parser.parse("a 1\nb{} 2\nc{x=\"y\",} 3 1712345678000\nd -4 -12\n");

    assertThat(result.samples())
        .extracting(Sample::name, Sample::labels, Sample::value)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", Map.of(), 1.0),
            org.assertj.core.groups.Tuple.tuple("b", Map.of(), 2.0),
            org.assertj.core.groups.Tuple.tuple("c", Map.of("x", "y"), 3.0),
            org.assertj.core.groups.Tuple.tuple("d", Map.of(), -4.0));
    assertThat(result.skippedLines()).isZero();
  }

  @ParameterizedTest
  @CsvSource({
    "NaN, NaN",
    "nan, NaN",
    "+Inf, Infinity",
    "Inf, Infinity",
    "-Inf, -Infinity",
    "1.5e+09, 1.5E9",
    "-0.25, -0.25",
    "42, 42",
    "123456789012345678901, 1.23456789012345678901E20",
    ".5, 0.5"
  })
  void parsesSpecialAndScientificValues(String text, double expected) {
    ParseResult result = parser.parse("m " + text);

    assertThat(result.skippedLines()).isZero();
    assertThat(result.samples()).singleElement().extracting(Sample::value).isEqualTo(expected);
  }

  @Test
  void unescapesLabelValues() {
    ParseResult result =
        parser.parse("m{path=\"C:\\\\dir\",quote=\"say \\\"hi\\\"\",nl=\"a\\nb\",odd=\"\\x\"} 1");

    assertThat(result.skippedLines()).isZero();
    assertThat(result.samples().getFirst().labels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("path", "C:\\dir", "quote", "say \"hi\"", "nl", "a\nb", "odd", "\\x"));
  }

  @Test
  void keepsCommasBracesAndSpacesInsideLabelValues() {
    ParseResult result = parser.parse("m{a=\"x, y} z\",b=\"\"} 1");

    assertThat(result.samples().getFirst().labels()).isEqualTo(Map.of("a", "x, y} z", "b", ""));
  }

  @Test
  void readsHistogramSeries() {
    ParseResult result =
        parser.parse(
            "h_bucket{le=\"0.1\"} 1\nh_bucket{le=\"+Inf\"} 3\nh_sum 0.7\nh_count 3\nc_total 9\n");

    assertThat(result.samples())
        .extracting(Sample::name)
        .containsExactly("h_bucket", "h_bucket", "h_sum", "h_count", "c_total");
    assertThat(result.samples().get(1).label("le")).isEqualTo("+Inf");
  }

  @Test
  void skipsAndCountsMalformedLines() {
    ParseResult result = parser.parse(Resources.metrics("malformed.txt"));

    assertThat(result.samples())
        .extracting(Sample::name)
        .containsExactly("good", "good_no_labels", "good_empty_labels", "good_trailing_comma");
    assertThat(result.skippedLines()).isEqualTo(13);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "m{a=\"1\"}",
        "m{a=\"1\" 5",
        "m{a=1} 6",
        "m abc",
        "m 1.5d",
        "m 0x1p3",
        "m 1 12.5",
        "m 1 2 3",
        "{a=\"1\"} 7",
        "m{=\"1\"} 7",
        "m{a=\"1\",a=\"2\"} 10",
        "m{a=\"x\\",
        "m{a=\"1\"}11",
        "m{a=\"1\"b=\"2\"} 1",
        "m{a} 1",
        "m+Inf",
      })
  void neverThrowsOnBadLines(String line) {
    ParseResult result = parser.parse(line + "\n");

    assertThat(result.samples()).isEmpty();
    assertThat(result.skippedLines()).isEqualTo(1);
  }

  @Test
  void toleratesCrLfBlankLinesAndNoTrailingNewline() {
    ParseResult result = parser.parse("\r\n# c\r\na 1\r\n\n   \nb 2");

    assertThat(result.samples()).extracting(Sample::name).containsExactly("a", "b");
    assertThat(result.skippedLines()).isZero();
  }

  @Test
  void parsesUtf8Bytes() {
    byte[] bytes = "m{name=\"café ☕\"} 1\n".getBytes(StandardCharsets.UTF_8);

    assertThat(parser.parse(bytes).samples().getFirst().label("name")).isEqualTo("café ☕");
  }

  @Test
  void filterKeepsOnlyWantedNamesButStillCountsMalformedLines() {
    PrometheusTextParser only = PrometheusTextParser.only(Set.of("keep"));

    ParseResult result = only.parse("keep 1\ndrop{a=\"1\"} 2\nkeep{b=\"2\"} 3\ndrop{a=1} 4\n");

    assertThat(result.samples()).extracting(Sample::value).containsExactly(1.0, 3.0);
    assertThat(result.skippedLines()).isEqualTo(1);
  }

  @Test
  void emptyInputYieldsNothing() {
    assertThat(parser.parse("").samples()).isEmpty();
    assertThat(parser.parse(new byte[0]).skippedLines()).isZero();
  }

  @Test
  void parsesAWholeVllmExposition() {
    ParseResult result = parser.parse(Resources.metrics("vllm-v0.10.txt"));

    assertThat(result.skippedLines()).isZero();
    assertThat(result.samples()).hasSizeGreaterThan(30);
  }
}
