package dev.pointsman.picker.scrape;

import java.nio.charset.StandardCharsets;

/**
 * Character classes and number parsing for the exposition format, on UTF-8 bytes and without
 * regexes. Every character the syntax names is ASCII, and no byte of a multi-byte UTF-8 sequence
 * is, so scanning bytes classifies exactly as scanning the decoded characters would.
 */
final class Chars {

  /** Powers of ten a double holds exactly. */
  private static final double[] POWERS = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };

  private Chars() {}

  static boolean isBlank(int c) {
    return c == ' ' || c == '\t';
  }

  /** Metric names may contain colons; label names may not. */
  static boolean isNameStart(int c, boolean colonAllowed) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || (colonAllowed && c == ':');
  }

  static boolean isNamePart(int c, boolean colonAllowed) {
    return isNameStart(c, colonAllowed) || (c >= '0' && c <= '9');
  }

  /** The end of the token starting at {@code pos}: the next blank or {@code end}. */
  static int tokenEnd(byte[] s, int pos, int end) {
    while (pos < end && !isBlank(s[pos])) {
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

  static boolean isInteger(byte[] s, int from, int to) {
    if (from < to && (s[from] == '-' || s[from] == '+')) {
      from++;
    }
    if (from == to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (s[i] < '0' || s[i] > '9') {
        return false;
      }
    }
    return true;
  }

  static boolean isNaNToken(byte[] s, int from, int to) {
    return to - from == 3 && matchesIgnoringCase(s, from, "NaN");
  }

  /**
   * Whether {@code s[from, to)} is a sample value {@link #parseValue} reads: a decimal float, a NaN
   * or an infinity. Allocates nothing.
   */
  static boolean isValue(byte[] s, int from, int to) {
    return from < to
        && (isNaNToken(s, from, to) || isInfinity(s, from, to) || decimalEnd(s, from, to) == to);
  }

  /**
   * Parses a sample value: a decimal float, {@code NaN}, {@code +Inf}, {@code -Inf}, {@code Inf} or
   * {@code Infinity} (any case, optionally signed). Returns NaN for anything else; callers tell
   * that from a real NaN with {@link #isNaNToken}. Decimals are read as {@link Double#parseDouble}
   * reads them (correctly rounded); short ones without building a string.
   */
  static double parseValue(byte[] s, int from, int to) {
    if (isNaNToken(s, from, to)) {
      return Double.NaN;
    }
    if (isInfinity(s, from, to)) {
      return s[from] == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    boolean negative = s[from] == '-';
    int unsigned = negative || s[from] == '+' ? from + 1 : from;
    if (to - from <= 18 && isInteger(s, from, to)) {
      long v = 0;
      for (int i = unsigned; i < to; i++) {
        v = v * 10 + (s[i] - '0');
      }
      return negative ? -v : v;
    }
    if (decimalEnd(s, from, to) != to) {
      return Double.NaN;
    }
    double fast = exactDecimal(s, unsigned, to);
    if (!Double.isNaN(fast)) {
      return negative ? -fast : fast;
    }
    return Double.parseDouble(new String(s, from, to - from, StandardCharsets.ISO_8859_1));
  }

  /** A signed {@code Inf} or {@code Infinity}, any case. */
  private static boolean isInfinity(byte[] s, int from, int to) {
    int unsigned = s[from] == '+' || s[from] == '-' ? from + 1 : from;
    return (to - unsigned == 3 && matchesIgnoringCase(s, unsigned, "Inf"))
        || (to - unsigned == 8 && matchesIgnoringCase(s, unsigned, "Infinity"));
  }

  /**
   * The end of the decimal float at {@code from} ({@code [+-]?(d+(.d*)?|.d+)([eE][+-]?d+)?}, what
   * {@link Double#parseDouble} accepts of these characters), or -1 when there is none.
   */
  private static int decimalEnd(byte[] s, int from, int to) {
    int i = from < to && (s[from] == '+' || s[from] == '-') ? from + 1 : from;
    int digits = 0;
    while (i < to && isDigit(s[i])) {
      i++;
      digits++;
    }
    if (i < to && s[i] == '.') {
      i++;
      while (i < to && isDigit(s[i])) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return -1;
    }
    if (i < to && (s[i] == 'e' || s[i] == 'E')) {
      i++;
      if (i < to && (s[i] == '+' || s[i] == '-')) {
        i++;
      }
      int expFrom = i;
      while (i < to && isDigit(s[i])) {
        i++;
      }
      if (i == expFrom) {
        return -1;
      }
    }
    return i;
  }

  /**
   * An unsigned, well-formed decimal whose digits fit 2^53 and whose power of ten is exact: one
   * correctly rounded multiplication or division (Clinger's fast path). NaN when it does not apply.
   */
  private static double exactDecimal(byte[] s, int from, int to) {
    long mantissa = 0;
    int digits = 0;
    int scale = 0;
    boolean fraction = false;
    int i = from;
    for (; i < to; i++) {
      byte c = s[i];
      if (c == '.') {
        fraction = true;
      } else if (isDigit(c)) {
        if (mantissa == 0 && c == '0') {
          if (fraction) {
            scale--;
          }
          continue;
        }
        if (++digits > 15) {
          return Double.NaN;
        }
        mantissa = mantissa * 10 + (c - '0');
        if (fraction) {
          scale--;
        }
      } else {
        break;
      }
    }
    if (i < to) { // an exponent: e, an optional sign, digits
      boolean negative = s[i + 1] == '-';
      int e = i + 1 + (s[i + 1] == '-' || s[i + 1] == '+' ? 1 : 0);
      if (to - e > 4) {
        return Double.NaN;
      }
      int exponent = 0;
      for (; e < to; e++) {
        exponent = exponent * 10 + (s[e] - '0');
      }
      scale += negative ? -exponent : exponent;
    }
    if (mantissa == 0) {
      return 0.0;
    }
    if (scale >= 0 && scale < POWERS.length) {
      return mantissa * POWERS[scale];
    }
    if (scale < 0 && -scale < POWERS.length) {
      return mantissa / POWERS[-scale];
    }
    return Double.NaN;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  /** Whether {@code s} at {@code from} holds ASCII {@code word}, ignoring case. */
  private static boolean matchesIgnoringCase(byte[] s, int from, String word) {
    for (int i = 0; i < word.length(); i++) {
      if ((s[from + i] | 0x20) != (word.charAt(i) | 0x20)) {
        return false;
      }
    }
    return true;
  }
}
