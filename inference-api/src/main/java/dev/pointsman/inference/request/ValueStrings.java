package dev.pointsman.inference.request;

/**
 * Finds the value strings of a JSON body in the bytes on their way to the JSON parser and, where
 * the extractor has no use for the rest of one, leaves that rest out: the parser sees the string
 * cut short and never decodes what nobody reads (a long prompt past the kept prefix, an image's
 * base64 data). What is left out is counted: its bytes, so the parser's offsets can be put back,
 * and its UTF-16 characters as the parser would have decoded them (an escape is one, a character
 * past U+FFFF two), so a prompt's length does not change. Leaving out stops at anything the parser
 * refuses inside a string (a raw control character, an escape JSON does not have), which then goes
 * to the parser with the rest of the string, so the refusal is the one the whole string gets. The
 * bytes are UTF-8 already checked. Not thread-safe.
 *
 * <p>Used in turns: {@link #pass} says how far bytes go to the parser; when it stops at a value
 * string's opening quote ({@link #opened()}), the parser is given and drains everything before
 * deciding, with {@link #keep}, how much of the string it gets; then {@link #elide} while {@link
 * #eliding()}.
 */
final class ValueStrings {
  private enum State {
    OUTSIDE,
    NAME,
    VALUE,
    ELIDING
  }

  private final JsonStructure structure;
  private State state = State.OUTSIDE;
  private boolean escaped;
  private int hexLeft;
  private long keep;
  private boolean opened;
  private final byte[] escape = new byte[6];
  private int escapeLength;
  private long elidedBytes;
  private long elidedChars;

  ValueStrings(int maxDepth) {
    this.structure = new JsonStructure(maxDepth);
  }

  /**
   * Scans from {@code from} and returns where bytes stop going to the parser: {@code end}, just
   * after a value string's opening quote ({@link #opened()}), or where a kept string's rest begins
   * ({@link #eliding()} from there).
   */
  int pass(byte[] bytes, int from, int end) {
    opened = false;
    for (int i = from; i < end; i++) {
      byte c = bytes[i];
      if (state == State.OUTSIDE) {
        JsonStructure.Opened o = structure.outside(c);
        if (o != JsonStructure.Opened.NOTHING) {
          escaped = false;
          hexLeft = 0;
          keep = Long.MAX_VALUE;
          state = o == JsonStructure.Opened.NAME ? State.NAME : State.VALUE;
          if (o == JsonStructure.Opened.VALUE) {
            opened = true;
            return i + 1;
          }
        }
      } else if (state == State.VALUE
          && keep <= 0
          && !escaped
          && hexLeft == 0
          && c != '"'
          && (c & 0xC0) != 0x80) {
        state = State.ELIDING;
        return i;
      } else if (closes(c)) {
        state = State.OUTSIDE;
      }
    }
    return end;
  }

  /** Whether the last {@link #pass} stopped just after a value string's opening quote. */
  boolean opened() {
    return opened;
  }

  /**
   * How many UTF-16 characters of the string just opened go to the parser before the rest is left
   * out.
   */
  void keep(long chars) {
    keep = chars;
  }

  /** Whether the rest of the current string is being left out. */
  boolean eliding() {
    return state == State.ELIDING;
  }

  /**
   * Leaves bytes out from {@code from} and returns where that stopped: {@code end}, or the closing
   * quote or refused byte from which the string goes on to the parser. When it stopped, the parser
   * first gets the {@link #release() held} bytes of an escape found to be refused.
   */
  int elide(byte[] bytes, int from, int end) {
    int i = from;
    long units = 0;
    try {
      while (i < end) {
        byte c = bytes[i];
        if (escapeLength > 0) {
          if (!continuesEscape(c)) {
            stopEliding();
            return i;
          }
          escape[escapeLength++] = c;
          if (escapeLength == 6 || escapeLength == 2 && c != 'u') {
            elidedBytes += escapeLength;
            units++;
            escapeLength = 0;
          }
          i++;
        } else if (c == '"' || (c & 0xFF) < 0x20) {
          stopEliding();
          return i;
        } else if (c == '\\') {
          escape[0] = c;
          escapeLength = 1;
          i++;
        } else {
          int run = i;
          while (i < end && (c = bytes[i]) != '"' && c != '\\' && (c & 0xFF) >= 0x20) {
            if ((c & 0xC0) != 0x80) {
              units += (c & 0xF8) == 0xF0 ? 2 : 1;
            }
            i++;
          }
          elidedBytes += i - run;
        }
      }
      return end;
    } finally {
      elidedChars += units;
    }
  }

  /**
   * The bytes of an escape held while it was checked, which the parser gets before the rest of the
   * string when leaving out stopped at it or the body ended inside it; their count, then none.
   */
  int release() {
    int n = escapeLength;
    escapeLength = 0;
    return n;
  }

  /** The array {@link #release()} counts bytes of, valid until the next call. */
  byte[] held() {
    return escape;
  }

  /** Bytes left out so far, over the whole body. */
  long elidedBytes() {
    return elidedBytes;
  }

  /** UTF-16 characters left out of the string whose elision just stopped; then zero. */
  long takeChars() {
    long n = elidedChars;
    elidedChars = 0;
    return n;
  }

  /** Follows a string's content; whether {@code c} closes it. */
  private boolean closes(byte c) {
    if (hexLeft > 0) {
      hexLeft--;
    } else if (escaped) {
      escaped = false;
      hexLeft = c == 'u' ? 4 : 0;
    } else if (c == '\\') {
      escaped = true;
      keep--;
    } else if (c == '"') {
      return true;
    } else if ((c & 0xC0) != 0x80) {
      keep -= (c & 0xF8) == 0xF0 ? 2 : 1;
    }
    return false;
  }

  private boolean continuesEscape(byte c) {
    if (escapeLength == 1) {
      return switch (c) {
        case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u' -> true;
        default -> false;
      };
    }
    return Character.digit(c, 16) >= 0;
  }

  /** The rest of the string goes to the parser, the escape held (if any) first. */
  private void stopEliding() {
    state = State.VALUE;
    keep = Long.MAX_VALUE;
    escaped = escapeLength == 1;
    hexLeft = escapeLength >= 2 ? 6 - escapeLength : 0;
  }
}
