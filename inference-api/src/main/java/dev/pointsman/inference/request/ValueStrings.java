package dev.pointsman.inference.request;

/**
 * Finds the value strings of a JSON body in the bytes on their way to the JSON parser and takes the
 * content of those the extractor does not need the parser for out of its way: prompt text is
 * decoded here straight into its {@link PromptText} (as much as it keeps, the rest only counted),
 * anything else nobody reads (an image's base64 data, a tool's description) is skipped; the parser
 * sees an empty string. So the parser never decodes a long prompt into its own buffers to have it
 * copied again. What is taken out is counted: its bytes, so the parser's offsets can be put back,
 * and its UTF-16 characters as the parser would have decoded them (an escape is one, a character
 * past U+FFFF two). Taking out stops at anything the parser refuses inside a string (a raw control
 * character, an escape JSON does not have), which then goes to the parser with the rest of the
 * string, so the refusal is the one the whole string gets. The bytes come as whole UTF-8
 * characters, already checked ({@link BodyScan}), or straight from a chunk ({@link
 * #takeOutUnchecked}), where the characters are checked as they are decoded. Not thread-safe.
 *
 * <p>Used in turns: {@link #pass} says how far bytes go to the parser; when it stops at a value
 * string's opening quote ({@link #opened()}), the parser is given and drains everything before it,
 * then {@link #takeOut} decides; {@link #takeOut(byte[], int, int)} runs while {@link
 * #takingOut()}.
 */
final class ValueStrings {
  private enum State {
    OUTSIDE,
    NAME,
    VALUE,
    TAKING_OUT
  }

  private final JsonStructure structure;
  private State state = State.OUTSIDE;
  private boolean escaped;
  private boolean opened;
  private PromptText text;
  private final byte[] escape = new byte[6];
  private int escapeLength;

  /**
   * Escapes and characters past ASCII, decoded before they go to the text; made when first needed.
   */
  private char[] decoded;

  private int decodedLength;
  private long takenBytes;
  private long units;

  ValueStrings(int maxDepth) {
    this.structure = new JsonStructure(maxDepth);
  }

  /**
   * Scans from {@code from} and returns where bytes stop going to the parser: {@code end}, or just
   * after a value string's opening quote ({@link #opened()}).
   */
  int pass(byte[] bytes, int from, int end) {
    opened = false;
    for (int i = from; i < end; i++) {
      byte c = bytes[i];
      if (state == State.OUTSIDE) {
        JsonStructure.Opened o = structure.outside(c);
        if (o != JsonStructure.Opened.NOTHING) {
          escaped = false;
          state = o == JsonStructure.Opened.NAME ? State.NAME : State.VALUE;
          if (o == JsonStructure.Opened.VALUE) {
            opened = true;
            return i + 1;
          }
        }
      } else if (escaped) {
        escaped = false; // the parser checks the escape; a refused one ends the parse
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
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
   * Takes the content of the string just opened out of the parser's way: decoded into {@code into}
   * (its segment begun already), or skipped where {@code into} is null.
   */
  void takeOut(PromptText into) {
    text = into;
    state = State.TAKING_OUT;
  }

  /** Whether the content of the current string is being taken out. */
  boolean takingOut() {
    return state == State.TAKING_OUT;
  }

  /**
   * Takes bytes out from {@code from} and returns where that stopped: {@code end}, or the closing
   * quote or refused byte from which the string goes on to the parser. When it stopped, the parser
   * first gets the {@link #release() held} bytes of an escape found to be refused.
   */
  int takeOut(byte[] bytes, int from, int end) {
    PromptText into = text;
    if (into != null) {
      into.expect(end - from); // at most a character a byte (a no-op once sized for the body)
    }
    int i = from;
    units = 0;
    try {
      while (i < end) {
        int c = bytes[i] & 0xFF;
        if (escapeLength > 0) {
          if (!continuesEscape(c)) {
            stop();
            return i;
          }
          escape[escapeLength++] = (byte) c;
          if (escapeLength == 6 || escapeLength == 2 && c != 'u') {
            takenBytes += escapeLength;
            units++;
            decodeEscape();
            escapeLength = 0;
          }
          i++;
        } else if (c == '"' || c < 0x20) {
          stop();
          return i;
        } else if (c == '\\') {
          escape[0] = (byte) c;
          escapeLength = 1;
          i++;
        } else {
          int run = i;
          i = ordinary(bytes, i, end);
          takenBytes += i - run;
          if (i < end && bytes[i] < 0) {
            return i; // a character ill-formed or cut: not checked yet (see takeOutUnchecked)
          }
        }
      }
      return end;
    } finally {
      if (into != null) {
        flush(into);
        into.count(units);
      }
    }
  }

  /**
   * As {@link #takeOut(byte[], int, int)}, on bytes straight from a chunk, before the {@link
   * BodyScan} has looked at them: also stops, still taking out, before a character that is
   * ill-formed or cut by {@code end}, and before a backslash that {@code end} parts from the byte
   * it escapes; so what it takes is what the scan would have passed on, unchanged by it.
   */
  int takeOutUnchecked(byte[] bytes, int from, int end) {
    int stop = takeOut(bytes, from, end);
    if (stop == end && escapeLength == 1 && state == State.TAKING_OUT) {
      escapeLength = 0; // not counted yet: taken again with the byte it escapes
      return end - 1;
    }
    return stop;
  }

  /**
   * Counts the UTF-16 units of a run of ordinary characters, up to a quote, backslash or control
   * character, decoding those the text still has room for; returns where the run ended.
   */
  private int ordinary(byte[] bytes, int i, int end) {
    int left = text == null ? 0 : text.room() - decodedLength; // UTF-16 units still kept
    while (i < end) {
      int run = ByteScan.skipPlainAscii(bytes, i, end);
      if (run > i) {
        int n = run - i;
        if (left > 0) {
          int k = Math.min(n, left);
          flush(text); // what was decoded before the run goes first
          text.putAscii(bytes, i, k);
          left -= k;
        }
        units += n;
        i = run;
        if (i == end) {
          break;
        }
      }
      int c = bytes[i] & 0xFF;
      if (c < 0x80) {
        break; // a quote, backslash or control character
      }
      int next = BodyScan.characterEnd(bytes, i, end);
      if (next < 0) {
        break; // ill-formed or cut by end
      }
      int length = next - i;
      int produced = length == 4 ? 2 : 1;
      if (left > 0) {
        putCodePoint(bytes, i, length);
        left -= produced;
      }
      units += produced;
      i += length;
    }
    return i;
  }

  private void putCodePoint(byte[] bytes, int i, int length) {
    int cp =
        switch (length) {
          case 2 -> (bytes[i] & 0x1F) << 6 | bytes[i + 1] & 0x3F;
          case 3 -> (bytes[i] & 0x0F) << 12 | (bytes[i + 1] & 0x3F) << 6 | bytes[i + 2] & 0x3F;
          default ->
              (bytes[i] & 0x07) << 18
                  | (bytes[i + 1] & 0x3F) << 12
                  | (bytes[i + 2] & 0x3F) << 6
                  | bytes[i + 3] & 0x3F;
        };
    if (length == 4) {
      put(Character.highSurrogate(cp));
      put(Character.lowSurrogate(cp));
    } else {
      put((char) cp);
    }
  }

  private void decodeEscape() {
    if (text == null || text.room() <= decodedLength) {
      return;
    }
    put(
        switch (escape[1]) {
          case 'b' -> '\b';
          case 'f' -> '\f';
          case 'n' -> '\n';
          case 'r' -> '\r';
          case 't' -> '\t';
          case 'u' ->
              (char)
                  (Character.digit(escape[2], 16) << 12
                      | Character.digit(escape[3], 16) << 8
                      | Character.digit(escape[4], 16) << 4
                      | Character.digit(escape[5], 16));
          default -> (char) escape[1]; // '"', '\\', '/'
        });
  }

  private void put(char c) {
    if (decoded == null) {
      decoded = new char[512]; // a prompt of plain ASCII never needs it
    } else if (decodedLength == decoded.length) {
      flush(text);
    }
    decoded[decodedLength++] = c;
  }

  private void flush(PromptText into) {
    if (decodedLength > 0) {
      into.write(decoded, 0, decodedLength);
      decodedLength = 0;
    }
  }

  /**
   * The bytes of an escape held while it was checked, which the parser gets before the rest of the
   * string when taking out stopped at it or the body ended inside it; their count, then none.
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

  /** Bytes taken out so far, over the whole body. */
  long takenBytes() {
    return takenBytes;
  }

  private boolean continuesEscape(int c) {
    if (escapeLength == 1) {
      return switch (c) {
        case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u' -> true;
        default -> false;
      };
    }
    return Character.digit(c, 16) >= 0;
  }

  /** The rest of the string goes to the parser, the escape held (if any) first. */
  private void stop() {
    state = State.VALUE;
    escaped = escapeLength == 1;
    text = null;
  }
}
