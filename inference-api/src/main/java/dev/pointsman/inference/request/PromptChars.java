package dev.pointsman.inference.request;

import java.util.Objects;

/**
 * The kept prompt prefix as the parser built it, read in place: a long prompt is not copied once
 * more into a {@link String} (for a 256 KB prompt that copy was about a third of what a parse
 * allocated). Read-only; equal to another {@code PromptChars} with the same characters. {@link
 * #toString} makes the String, for the few readers that need one.
 */
public final class PromptChars implements CharSequence {
  /** No prompt text. */
  public static final PromptChars EMPTY = new PromptChars("");

  private final CharSequence chars;
  private int hash;

  private PromptChars(CharSequence chars) {
    this.chars = chars;
  }

  /**
   * {@code chars}, which no one changes from now on (the parser hands over its builder when the
   * parse ends).
   */
  public static PromptChars of(CharSequence chars) {
    Objects.requireNonNull(chars, "chars");
    if (chars instanceof PromptChars p) {
      return p;
    }
    return chars.isEmpty() ? EMPTY : new PromptChars(chars);
  }

  @Override
  public int length() {
    return chars.length();
  }

  @Override
  public char charAt(int index) {
    return chars.charAt(index);
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return chars.subSequence(start, end);
  }

  @Override
  public String toString() {
    return chars.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PromptChars p && CharSequence.compare(chars, p.chars) == 0;
  }

  /** The hash {@link String#hashCode} gives the same characters. */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      for (int i = 0; i < chars.length(); i++) {
        h = 31 * h + chars.charAt(i);
      }
      hash = h;
    }
    return h;
  }
}
