package dev.pointsman.picker.scrape;

import java.util.List;

/**
 * What {@link PrometheusTextParser} made of one exposition.
 *
 * @param samples the well-formed samples that passed the parser's name filter, in input order
 * @param skippedLines malformed lines that were skipped (comments and blank lines are not counted)
 */
public record ParseResult(List<Sample> samples, int skippedLines) {
  public ParseResult {
    samples = List.copyOf(samples);
    if (skippedLines < 0) {
      throw new IllegalArgumentException("skippedLines: " + skippedLines + " (expected >= 0)");
    }
  }
}
