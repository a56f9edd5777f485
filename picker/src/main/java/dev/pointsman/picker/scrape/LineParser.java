package dev.pointsman.picker.scrape;

import java.util.Map;
import java.util.function.Predicate;

/**
 * Parses one line of an exposition at a time; one instance per {@link PrometheusTextParser#parse}
 * call (not thread-safe). Remembers the previous metric name so that runs of lines of one metric
 * (histogram buckets) share one name string and one filter decision.
 */
final class LineParser {

  /** What a line turned out to be. */
  enum Kind {
    SAMPLE,
    IGNORED,
    MALFORMED
  }

  private final String text;
  private final Predicate<String> wanted;
  private final LabelParser labels;
  private String name = "";
  private boolean nameWanted;
  private double value;
  private Sample sample;
  private int pos;
  private int end;

  LineParser(String text, Predicate<String> wanted) {
    this.text = text;
    this.wanted = wanted;
    this.labels = new LabelParser(text);
  }

  /** Parses {@code text[start, end)}; on {@link Kind#SAMPLE}, {@link #sample()} returns it. */
  Kind parse(int start, int end) {
    this.end = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
    pos = start;
    skipBlanks();
    if (pos == this.end || text.charAt(pos) == '#') {
      return Kind.IGNORED;
    }
    if (!readName()) {
      return Kind.MALFORMED;
    }
    int afterName = pos;
    skipBlanks();
    if (pos < this.end && text.charAt(pos) == '{') {
      pos = labels.parse(pos + 1, this.end, nameWanted);
      if (pos < 0) {
        return Kind.MALFORMED;
      }
      afterName = pos;
      skipBlanks();
    } else {
      labels.clear();
    }
    if (pos == afterName || !readValueAndTimestamp()) {
      return Kind.MALFORMED;
    }
    if (!nameWanted) {
      return Kind.IGNORED;
    }
    Map<String, String> map = labels.toMap();
    if (map == null) {
      return Kind.MALFORMED;
    }
    sample = new Sample(name, map, value);
    return Kind.SAMPLE;
  }

  Sample sample() {
    return sample;
  }

  private boolean readName() {
    int from = pos;
    if (!Chars.isNameStart(text.charAt(pos), true)) {
      return false;
    }
    pos++;
    while (pos < end && Chars.isNamePart(text.charAt(pos), true)) {
      pos++;
    }
    int len = pos - from;
    if (name.length() != len || !text.regionMatches(from, name, 0, len)) {
      name = text.substring(from, pos);
      nameWanted = wanted.test(name);
    }
    return true;
  }

  private boolean readValueAndTimestamp() {
    int from = pos;
    pos = Chars.tokenEnd(text, pos, end);
    if (from == pos || (pos < end && !Chars.isBlank(text.charAt(pos)))) {
      return false;
    }
    value = Chars.parseValue(text, from, pos);
    if (Double.isNaN(value) && !Chars.isNaNToken(text, from, pos)) {
      return false;
    }
    skipBlanks();
    if (pos == end) {
      return true;
    }
    int tsFrom = pos;
    pos = Chars.tokenEnd(text, pos, end);
    if (!Chars.isInteger(text, tsFrom, pos)) {
      return false;
    }
    skipBlanks();
    return pos == end;
  }

  private void skipBlanks() {
    while (pos < end && Chars.isBlank(text.charAt(pos))) {
      pos++;
    }
  }
}
