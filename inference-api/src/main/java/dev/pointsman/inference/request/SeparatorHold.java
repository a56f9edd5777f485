package dev.pointsman.inference.request;

import java.io.IOException;
import java.util.Arrays;

/**
 * Holds back the separators (whitespace, {@code ','} and {@code ':'}) a chunk ends with, and passes
 * them on together with the first character of the next token (whole: what follows sees whole UTF-8
 * characters, as {@link BodyScan} passes them). Jackson's non-blocking parser (2.21) forgets, when
 * its input runs out after a comma or colon in an object, that a name or value must follow: {@code
 * {"a": }} and {@code {"a":1, }} were accepted when a chunk ended between the separator and the
 * brace, and refused otherwise. Given whole, it refuses them. The bytes held are at most those of
 * one run of separators, bounded by the body limit. Not thread-safe.
 */
final class SeparatorHold {
  private byte[] held = new byte[16];
  private int count;

  /** Passes on {@code length} bytes of {@code bytes} from {@code offset}, holding back the tail. */
  void feed(byte[] bytes, int offset, int length, BodyScan.Sink sink) throws IOException {
    int end = offset + length;
    int tail = tailStart(bytes, offset, end);
    int from = offset;
    if (count > 0) {
      if (tail == offset) {
        append(bytes, offset, length);
        return;
      }
      int token = offset;
      while (isSeparator(bytes[token])) {
        token++;
      }
      int next = token + characterLength(bytes[token]); // a character whole, as it came
      append(bytes, offset, next - offset);
      pass(sink);
      from = next;
    }
    sink.accept(bytes, from, tail - from);
    append(bytes, tail, end - tail);
  }

  /**
   * Where the separators {@code bytes[from, end)} ends with begin: what a feed of it holds back.
   */
  static int tailStart(byte[] bytes, int from, int end) {
    int tail = end;
    while (tail > from && isSeparator(bytes[tail - 1])) {
      tail--;
    }
    return tail;
  }

  /** Whether separators are held. */
  boolean holding() {
    return count > 0;
  }

  /** Passes on what is held, at the end of the body. */
  void finish(BodyScan.Sink sink) throws IOException {
    pass(sink);
  }

  private void pass(BodyScan.Sink sink) throws IOException {
    int n = count;
    count = 0;
    sink.accept(held, 0, n);
  }

  private void append(byte[] bytes, int offset, int length) {
    if (count + length > held.length) {
      held = Arrays.copyOf(held, Math.max(held.length * 2, count + length));
    }
    System.arraycopy(bytes, offset, held, count, length);
    count += length;
  }

  /** The length of the UTF-8 character {@code lead} begins (the bytes are checked already). */
  private static int characterLength(byte lead) {
    int c = lead & 0xFF;
    return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  }

  private static boolean isSeparator(byte b) {
    return b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == ',' || b == ':';
  }
}
