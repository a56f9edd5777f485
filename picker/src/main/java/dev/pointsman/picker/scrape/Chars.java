package dev.pointsman.picker.scrape;

/** Character classes and number parsing for the exposition format, without regexes. */
final class Chars {

  private Chars() {}

  static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  /** Metric names may contain colons; label names may not. */
  static boolean isNameStart(char c, boolean colonAllowed) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || (colonAllowed && c == ':');
  }

  static boolean isNamePart(char c, boolean colonAllowed) {
    return isNameStart(c, colonAllowed) || (c >= '0' && c <= '9');
  }

  /** The end of the token starting at {@code pos}: the next blank or {@code end}. */
  static int tokenEnd(String s, int pos, int end) {
    while (pos < end && !isBlank(s.charAt(pos))) {
      pos++;
    }
    return pos;
  }

  static boolean isInteger(String s, int from, int to) {
    if (from < to && (s.charAt(from) == '-' || s.charAt(from) == '+')) {
      from++;
    }
    if (from == to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  static boolean isNaNToken(String s, int from, int to) {
    return to - from == 3 && s.regionMatches(true, from, "NaN", 0, 3);
  }

  /**
   * Parses a sample value: a decimal float, {@code NaN}, {@code +Inf}, {@code -Inf}, {@code Inf} or
   * {@code Infinity} (any case, optionally signed). Returns NaN for anything else; callers tell
   * that from a real NaN with {@link #isNaNToken}.
   */
  static double parseValue(String s, int from, int to) {
    if (isNaNToken(s, from, to)) {
      return Double.NaN;
    }
    char first = s.charAt(from);
    int unsigned = first == '+' || first == '-' ? from + 1 : from;
    if ((to - unsigned == 3 && s.regionMatches(true, unsigned, "Inf", 0, 3))
        || (to - unsigned == 8 && s.regionMatches(true, unsigned, "Infinity", 0, 8))) {
      return first == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (to - from <= 18 && isInteger(s, from, to)) {
      return parseLong(s, unsigned, to, first == '-');
    }
    for (int i = unsigned; i < to; i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
      if (!ok) {
        return Double.NaN;
      }
    }
    try {
      return Double.parseDouble(s.substring(from, to));
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static double parseLong(String s, int from, int to, boolean negative) {
    long v = 0;
    for (int i = from; i < to; i++) {
      v = v * 10 + (s.charAt(i) - '0');
    }
    return negative ? -v : v;
  }
}
