package dev.pointsman.picker.scrape;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Parses one line of a UTF-8 exposition at a time; one instance per {@link
 * PrometheusTextParser#parse} call (not thread-safe). Remembers the previous metric name so that
 * runs of lines of one metric (histogram buckets) share one name string and one filter decision. A
 * line whose name is not wanted is checked for syntax and allocates nothing.
 */
final class LineParser {

  /** What a line turned out to be. */
  enum Kind {
    SAMPLE,
    IGNORED,
    MALFORMED
  }

  private final byte[] text;
  private final NameTable wanted;
  private final LabelParser labels;
  private String name;
  private int nameFrom;
  private int nameTo;
  private double value;
  private Sample sample;
  private int pos;
  private int end;

  /**
   * @param wanted the names to keep; null keeps every name
   */
  LineParser(byte[] text, NameTable wanted) {
    this.text = text;
    this.wanted = wanted;
    this.labels = new LabelParser(text);
  }

  /** Parses {@code text[start, end)}; on {@link Kind#SAMPLE}, {@link #sample()} returns it. */
  Kind parse(int start, int end) {
    this.end = end > start && text[end - 1] == '\r' ? end - 1 : end;
    pos = start;
    skipBlanks();
    if (pos == this.end || text[pos] == '#') {
      return Kind.IGNORED;
    }
    if (!readName()) {
      return Kind.MALFORMED;
    }
    boolean keep = name != null;
    int afterName = pos;
    skipBlanks();
    if (pos < this.end && text[pos] == '{') {
      pos = labels.parse(pos + 1, this.end, keep);
      if (pos < 0) {
        return Kind.MALFORMED;
      }
      afterName = pos;
      skipBlanks();
    } else {
      labels.clear();
    }
    if (pos == afterName || !readValueAndTimestamp(keep)) {
      return Kind.MALFORMED;
    }
    if (!keep) {
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

  /** Reads the metric name; {@link #name} is then the kept name, or null for one not wanted. */
  private boolean readName() {
    int from = pos;
    if (!Chars.isNameStart(text[pos], true)) {
      return false;
    }
    pos++;
    while (pos < end && Chars.isNamePart(text[pos], true)) {
      pos++;
    }
    if (nameTo > nameFrom && Arrays.equals(text, from, pos, text, nameFrom, nameTo)) {
      return true;
    }
    nameFrom = from;
    nameTo = pos;
    name =
        wanted == null
            ? new String(text, from, pos - from, StandardCharsets.ISO_8859_1)
            : wanted.find(text, from, pos);
    return true;
  }

  private boolean readValueAndTimestamp(boolean keep) {
    int from = pos;
    pos = Chars.tokenEnd(text, pos, end);
    if (from == pos || (pos < end && !Chars.isBlank(text[pos]))) {
      return false;
    }
    if (keep) {
      value = Chars.parseValue(text, from, pos);
      if (Double.isNaN(value) && !Chars.isNaNToken(text, from, pos)) {
        return false;
      }
    } else if (!Chars.isValue(text, from, pos)) {
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
    while (pos < end && Chars.isBlank(text[pos])) {
      pos++;
    }
  }
}
