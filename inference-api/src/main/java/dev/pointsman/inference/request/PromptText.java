package dev.pointsman.inference.request;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * Prompt text segments joined by {@code '\n'}: keeps the first {@code max} characters, counts them
 * all. Long strings are copied from the parser's buffers without building a String. The kept
 * characters are held as a String holds them: one byte each while every one is at most U+00FF, so
 * that a run of ASCII bytes from the body is kept by one array copy ({@link #putAscii}); two bytes
 * each from the first character past U+00FF on.
 */
final class PromptText extends Writer {
  private final int max;
  private byte[] latin1;
  private char[] utf16;
  private int length;
  private PromptChars handedOver;
  private long chars;
  private int segments;

  PromptText(int max) {
    this.max = max;
  }

  /** Appends the current string token of {@code parser} as a new segment. */
  void append(JsonParser parser) throws IOException {
    beginSegment();
    int n = parser.getTextLength();
    if (room() > 0 && n > 0) {
      parser.getText(this);
    }
    chars += n;
  }

  /**
   * Begins a new segment whose characters come through {@link #write} (kept while there is room)
   * and {@link #count}.
   */
  void beginSegment() {
    if (segments++ > 0) {
      chars++;
      keepNewline();
    }
  }

  /**
   * Says that about {@code chars} more characters may come through {@link #write}, so the kept text
   * grows once rather than by doubling from a small start.
   */
  void expect(int chars) {
    int wanted = Math.min(room(), chars);
    if (wanted > 0) {
      reserve(wanted);
    }
  }

  /** Counts {@code n} characters of the current segment, kept or not. */
  void count(long n) {
    chars += n;
  }

  boolean isEmpty() {
    return segments == 0;
  }

  long chars() {
    return chars;
  }

  /**
   * The kept characters, read in place from now on (the result hands them over without a copy):
   * nothing is written after. Room reserved for text that never came is given back first when it is
   * most of the buffer.
   */
  PromptChars kept() {
    if (handedOver == null) {
      if (utf16 != null) {
        if (utf16.length > 2L * length + 1_024) {
          utf16 = Arrays.copyOf(utf16, length);
        }
        handedOver = PromptChars.utf16(utf16, length);
      } else if (latin1 != null) {
        if (latin1.length > 2L * length + 1_024) {
          latin1 = Arrays.copyOf(latin1, length);
        }
        handedOver = PromptChars.latin1(latin1, length);
      } else {
        handedOver = PromptChars.EMPTY;
      }
    }
    return handedOver;
  }

  /**
   * Keeps {@code k} ASCII bytes from {@code from} as characters; the caller has checked that they
   * are ASCII and that there is room for them.
   */
  void putAscii(byte[] bytes, int from, int k) {
    reserve(k);
    if (utf16 == null) {
      System.arraycopy(bytes, from, latin1, length, k);
    } else {
      char[] to = utf16;
      int at = length;
      for (int j = 0; j < k; j++) {
        to[at + j] = (char) bytes[from + j];
      }
    }
    length += k;
  }

  @Override
  public void write(char[] buffer, int offset, int n) {
    n = Math.min(n, room());
    if (n <= 0) {
      return;
    }
    reserve(n);
    int j = 0;
    if (utf16 == null) {
      byte[] to = latin1;
      for (; j < n; j++) {
        char c = buffer[offset + j];
        if (c > 0xFF) {
          inflate();
          break;
        }
        to[length++] = (byte) c;
      }
    }
    if (j < n) {
      System.arraycopy(buffer, offset + j, utf16, length, n - j);
      length += n - j;
    }
  }

  @Override
  public void write(String text, int offset, int n) {
    n = Math.min(n, room());
    if (n > 0) {
      char[] part = new char[n];
      text.getChars(offset, offset + n, part, 0);
      write(part, 0, n);
    }
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  private void keepNewline() {
    if (room() > 0) {
      reserve(1);
      if (utf16 != null) {
        utf16[length++] = '\n';
      } else {
        latin1[length++] = '\n';
      }
    }
  }

  /** How many more characters are kept. */
  int room() {
    return max - length;
  }

  /** Makes room for {@code n} more characters ({@code n <= room()}). */
  private void reserve(int n) {
    int needed = length + n;
    int capacity = utf16 != null ? utf16.length : latin1 != null ? latin1.length : 0;
    if (needed <= capacity) {
      return;
    }
    int grown =
        capacity == 0
            ? Math.max(256, needed)
            : (int) Math.max(needed, Math.min(Integer.MAX_VALUE - 8, 2L * capacity + 2));
    grown = Math.min(grown, Math.max(max, needed));
    if (utf16 != null) {
      utf16 = Arrays.copyOf(utf16, grown);
    } else {
      latin1 = latin1 == null ? new byte[grown] : Arrays.copyOf(latin1, grown);
    }
  }

  /** From one byte a character to two, as the first past U+00FF arrives. */
  private void inflate() {
    char[] wide = new char[latin1.length];
    for (int i = 0; i < length; i++) {
      wide[i] = (char) (latin1[i] & 0xFF);
    }
    utf16 = wide;
    latin1 = null;
  }
}
