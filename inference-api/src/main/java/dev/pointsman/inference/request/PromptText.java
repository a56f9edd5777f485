package dev.pointsman.inference.request;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.Writer;

/**
 * Prompt text segments joined by {@code '\n'}: keeps the first {@code max} characters, counts them
 * all. Long strings are copied from the parser's buffers without building a String.
 */
final class PromptText extends Writer {
  private final int max;
  private StringBuilder kept;
  private long chars;
  private int segments;

  PromptText(int max) {
    this.max = max;
  }

  /** Appends the current string token of {@code parser} as a new segment. */
  void append(JsonParser parser) throws IOException {
    beginSegment();
    int length = parser.getTextLength();
    if (room() > 0 && length > 0) {
      parser.getText(this);
    }
    chars += length;
  }

  /**
   * Begins a new segment whose characters come through {@link #write} (kept while there is room)
   * and {@link #count}.
   */
  void beginSegment() {
    if (segments++ > 0) {
      chars++;
      keep('\n');
    }
  }

  /**
   * Says that about {@code chars} more characters may come through {@link #write}, so the kept text
   * grows once rather than by doubling from a small start.
   */
  void expect(int chars) {
    int wanted = Math.min(room(), chars);
    if (wanted > 0) {
      builder(wanted).ensureCapacity(kept.length() + wanted);
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
  CharSequence kept() {
    if (kept == null) {
      return "";
    }
    if (kept.capacity() > 2L * kept.length() + 1_024) {
      kept.trimToSize();
    }
    return kept;
  }

  @Override
  public void write(char[] buffer, int offset, int length) {
    int n = Math.min(length, room());
    if (n > 0) {
      builder(n).append(buffer, offset, n);
    }
  }

  @Override
  public void write(String text, int offset, int length) {
    int n = Math.min(length, room());
    if (n > 0) {
      builder(n).append(text, offset, offset + n);
    }
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  private void keep(char c) {
    if (room() > 0) {
      builder(1).append(c);
    }
  }

  /** How many more characters are kept. */
  int room() {
    return max - (kept == null ? 0 : kept.length());
  }

  private StringBuilder builder(int needed) {
    if (kept == null) {
      kept = new StringBuilder(Math.min(max, Math.max(256, needed)));
    }
    return kept;
  }
}
