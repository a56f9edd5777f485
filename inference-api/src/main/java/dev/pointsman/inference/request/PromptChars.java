package dev.pointsman.inference.request;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The kept prompt prefix as the parser built it, read in place: a long prompt is not copied once
 * more into a {@link String} (for a 256 KB prompt that copy was about a third of what a parse
 * allocated). As a String keeps its characters, one byte each while every one is at most U+00FF
 * (Latin-1), two bytes each otherwise (UTF-16). Read-only; equal to another {@code PromptChars}
 * with the same characters. {@link #toString} makes the String, for the few readers that need one.
 */
public final class PromptChars implements CharSequence {
  /** No prompt text. */
  public static final PromptChars EMPTY = new PromptChars(new byte[0], null, 0);

  private final byte[] latin1;
  private final char[] utf16;
  private final int length;
  private int hash;

  private PromptChars(byte[] latin1, char[] utf16, int length) {
    this.latin1 = latin1;
    this.utf16 = utf16;
    this.length = length;
  }

  /** {@code chars} as prompt characters: itself when it is one already, a copy otherwise. */
  public static PromptChars of(CharSequence chars) {
    Objects.requireNonNull(chars, "chars");
    if (chars instanceof PromptChars p) {
      return p;
    }
    int n = chars.length();
    if (n == 0) {
      return EMPTY;
    }
    byte[] narrow = new byte[n];
    for (int i = 0; i < n; i++) {
      char c = chars.charAt(i);
      if (c > 0xFF) {
        char[] wide = new char[n];
        chars.toString().getChars(0, n, wide, 0);
        return new PromptChars(null, wide, n);
      }
      narrow[i] = (byte) c;
    }
    return new PromptChars(narrow, null, n);
  }

  /**
   * The first {@code length} characters of {@code latin1}, one byte each, which no one changes from
   * now on (the parser hands its buffer over when the parse ends).
   */
  static PromptChars latin1(byte[] latin1, int length) {
    return length == 0 ? EMPTY : new PromptChars(latin1, null, length);
  }

  /** As {@link #latin1}, for UTF-16 characters. */
  static PromptChars utf16(char[] utf16, int length) {
    return length == 0 ? EMPTY : new PromptChars(null, utf16, length);
  }

  @Override
  public int length() {
    return length;
  }

  /**
   * Kept at 35 bytes of bytecode, HotSpot's {@code MaxInlineSize}: C2 inlines a method that size
   * wherever the call is hot by its caller's profile, a larger one only where the profile also
   * counts it as frequent (the prefix hasher reads a long prompt through here; docs/benchmarks.md,
   * "The prefix hasher").
   */
  @Override
  public char charAt(int index) {
    Objects.checkIndex(index, length);
    byte[] narrow = latin1;
    return narrow != null ? (char) Byte.toUnsignedInt(narrow[index]) : utf16[index];
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    Objects.checkFromToIndex(start, end, length);
    return latin1 != null
        ? new String(latin1, start, end - start, StandardCharsets.ISO_8859_1)
        : new String(utf16, start, end - start);
  }

  @Override
  public String toString() {
    return latin1 != null
        ? new String(latin1, 0, length, StandardCharsets.ISO_8859_1)
        : new String(utf16, 0, length);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PromptChars p) || p.length != length) {
      return false;
    }
    if (latin1 != null && p.latin1 != null) {
      return Arrays.equals(latin1, 0, length, p.latin1, 0, length);
    }
    if (utf16 != null && p.utf16 != null) {
      return Arrays.equals(utf16, 0, length, p.utf16, 0, length);
    }
    return CharSequence.compare(this, p) == 0;
  }

  /** The hash {@link String#hashCode} gives the same characters. */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      for (int i = 0; i < length; i++) {
        h = 31 * h + (latin1 != null ? latin1[i] & 0xFF : utf16[i]);
      }
      hash = h;
    }
    return h;
  }
}
