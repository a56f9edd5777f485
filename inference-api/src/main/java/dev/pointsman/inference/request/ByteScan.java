package dev.pointsman.inference.request;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds the next byte of interest in a run of body bytes eight at a time: each test reads a 64-bit
 * word and asks, with the usual borrow tricks, whether any of its bytes is one of interest (the
 * answer is exact for "any"), then finds which byte by looking at them one at a time. Most of a
 * request body is prompt text in which none of these bytes occur for tens of characters.
 */
final class ByteScan {
  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long QUOTES = '"' * ONES;
  private static final long BACKSLASHES = '\\' * ONES;
  private static final long SPACES = 0x20 * ONES;

  private ByteScan() {}

  /** The index of the first byte from {@code i} that is not ASCII (≥ 0x80), or {@code end}. */
  static int skipAscii(byte[] bytes, int i, int end) {
    while (i + Long.BYTES <= end && ((long) WORDS.get(bytes, i) & HIGHS) == 0) {
      i += Long.BYTES;
    }
    while (i < end && bytes[i] >= 0) {
      i++;
    }
    return i;
  }

  /** The index of the first quote or backslash from {@code i}, or {@code end}. */
  static int skipToQuoteOrBackslash(byte[] bytes, int i, int end) {
    while (i + Long.BYTES <= end) {
      long x = (long) WORDS.get(bytes, i);
      if ((hasByte(x, QUOTES) | hasByte(x, BACKSLASHES)) != 0) {
        break;
      }
      i += Long.BYTES;
    }
    while (i < end && bytes[i] != '"' && bytes[i] != '\\') {
      i++;
    }
    return i;
  }

  /**
   * The index of the first quote, backslash or non-ASCII byte (≥ 0x80) from {@code i}, or {@code
   * end}.
   */
  static int skipToQuoteBackslashOrHigh(byte[] bytes, int i, int end) {
    while (i + Long.BYTES <= end) {
      long x = (long) WORDS.get(bytes, i);
      if (((x & HIGHS) | hasByte(x, QUOTES) | hasByte(x, BACKSLASHES)) != 0) {
        break;
      }
      i += Long.BYTES;
    }
    while (i < end && bytes[i] >= 0 && bytes[i] != '"' && bytes[i] != '\\') {
      i++;
    }
    return i;
  }

  /**
   * The index of the first byte from {@code i} that is not a plain ASCII character of a JSON string
   * (a quote, a backslash, a control character or a byte ≥ 0x80), or {@code end}.
   */
  static int skipPlainAscii(byte[] bytes, int i, int end) {
    while (i + Long.BYTES <= end) {
      long x = (long) WORDS.get(bytes, i);
      long below = (x - SPACES) & ~x & HIGHS; // some byte < 0x20 (exact when none is ≥ 0x80)
      if (((x & HIGHS) | below | hasByte(x, QUOTES) | hasByte(x, BACKSLASHES)) != 0) {
        break;
      }
      i += Long.BYTES;
    }
    while (i < end) {
      byte c = bytes[i];
      if (c < 0x20 || c == '"' || c == '\\') {
        break;
      }
      i++;
    }
    return i;
  }

  /** Non-zero when some byte of {@code x} equals the byte repeated in {@code repeated}. */
  private static long hasByte(long x, long repeated) {
    long v = x ^ repeated;
    return (v - ONES) & ~v & HIGHS;
  }
}
