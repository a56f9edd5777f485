package dev.pointsman.picker.scrape;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Parses the Prometheus text exposition format 0.0.4 into {@link Sample}s, from the UTF-8 bytes as
 * received: no string of the whole text is built, nor of a line, a name or a value that is not
 * kept.
 *
 * <p>Comments ({@code # HELP}, {@code # TYPE}, any {@code #} line) and blank lines are ignored.
 * Malformed lines are skipped and counted; parsing never throws on bad input. A name filter lets a
 * caller keep only the series it reads: other lines are still checked for syntax (so the skipped
 * count means the same either way) but allocate nothing.
 *
 * <p>Immutable and thread-safe.
 */
public final class PrometheusTextParser {

  private static final PrometheusTextParser ALL = new PrometheusTextParser(null);

  /** The names kept; null keeps all. */
  private final NameTable wanted;

  private PrometheusTextParser(NameTable wanted) {
    this.wanted = wanted;
  }

  /** A parser that keeps every sample. */
  public static PrometheusTextParser all() {
    return ALL;
  }

  /** A parser that keeps only samples whose metric name is in {@code names}. */
  public static PrometheusTextParser only(Set<String> names) {
    return new PrometheusTextParser(new NameTable(Set.copyOf(names)));
  }

  /** Parses UTF-8 bytes. */
  public ParseResult parse(byte[] utf8) {
    Objects.requireNonNull(utf8, "utf8");
    return parse(utf8, 0, utf8.length);
  }

  /** Parses the UTF-8 bytes {@code utf8[from, to)}. */
  public ParseResult parse(byte[] utf8, int from, int to) {
    Objects.checkFromToIndex(from, to, utf8.length);
    List<Sample> samples = new ArrayList<>();
    LineParser line = new LineParser(utf8, wanted);
    int skipped = 0;
    int start = from;
    while (start < to) {
      int end = lineEnd(utf8, start, to);
      switch (line.parse(start, end)) {
        case SAMPLE -> samples.add(line.sample());
        case MALFORMED -> skipped++;
        case IGNORED -> {}
      }
      start = end + 1;
    }
    return new ParseResult(samples, skipped);
  }

  /** Parses a whole exposition. */
  public ParseResult parse(String text) {
    Objects.requireNonNull(text, "text");
    return parse(text.getBytes(StandardCharsets.UTF_8));
  }

  private static int lineEnd(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return to;
  }
}
