package dev.pointsman.picker.scrape;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Parses the Prometheus text exposition format 0.0.4 into {@link Sample}s.
 *
 * <p>Comments ({@code # HELP}, {@code # TYPE}, any {@code #} line) and blank lines are ignored.
 * Malformed lines are skipped and counted; parsing never throws on bad input. A name filter lets a
 * caller keep only the series it reads: other lines are still checked for syntax (so the skipped
 * count means the same either way) but allocate nothing.
 *
 * <p>Immutable and thread-safe.
 */
public final class PrometheusTextParser {

  private static final PrometheusTextParser ALL = new PrometheusTextParser(name -> true);

  private final Predicate<String> wanted;

  private PrometheusTextParser(Predicate<String> wanted) {
    this.wanted = wanted;
  }

  /** A parser that keeps every sample. */
  public static PrometheusTextParser all() {
    return ALL;
  }

  /** A parser that keeps only samples whose metric name is in {@code names}. */
  public static PrometheusTextParser only(Set<String> names) {
    Set<String> copy = Set.copyOf(names);
    return new PrometheusTextParser(copy::contains);
  }

  /** Parses UTF-8 bytes. */
  public ParseResult parse(byte[] utf8) {
    Objects.requireNonNull(utf8, "utf8");
    return parse(new String(utf8, StandardCharsets.UTF_8));
  }

  /** Parses a whole exposition. */
  public ParseResult parse(String text) {
    Objects.requireNonNull(text, "text");
    List<Sample> samples = new ArrayList<>();
    LineParser line = new LineParser(text, wanted);
    int skipped = 0;
    int start = 0;
    int length = text.length();
    while (start < length) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = length;
      }
      switch (line.parse(start, end)) {
        case SAMPLE -> samples.add(line.sample());
        case MALFORMED -> skipped++;
        case IGNORED -> {}
      }
      start = end + 1;
    }
    return new ParseResult(samples, skipped);
  }
}
