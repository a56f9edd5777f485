package dev.pointsman.inference.request;

import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.io.IOException;

/**
 * The first look at a body's bytes as its chunks arrive, one pass over each byte for two jobs.
 *
 * <p>It checks that the body is well-formed UTF-8 (RFC 3629), a character split across chunks
 * included. Jackson's non-blocking parser checks start and continuation bytes but decodes overlong
 * forms ({@code C0 AF} as {@code /}), lead bytes {@code F5..F7} and code points above U+10FFFF
 * without complaint, where a model server's strict decoder refuses them; so the gateway would route
 * on text the server does not see. Every byte is checked, inside strings or not. What it passes on
 * is the longest run of complete, well-formed characters; the start of a character cut by the
 * chunk's end is held back until the next chunk completes it, so what follows sees the same bytes
 * however the body is chunked, and has seen everything before an ill-formed sequence when that is
 * refused.
 *
 * <p>And it replaces a {@code \}{@code u} escape of a UTF-16 surrogate inside an object's member
 * name by {@code \}{@code uFFFD}, the same length, so offsets do not move. Jackson's non-blocking
 * parser (2.21) refuses an escaped surrogate pair in a name as "Invalid UTF-8", though it is valid
 * JSON (Python's {@code json.dumps} writes every character past U+FFFF so); no name the extractor
 * looks for contains one, so which non-ASCII name it was does not matter. A name's escape is passed
 * on whole, even when cut by a chunk. Strings that are values are passed on as they are.
 *
 * <p>A value string's content need not be looked at twice: where this scan stands at the start of
 * one's content (just after its opening quote, or at a chunk's start inside it) with everything
 * before passed on, it offers the content to a {@link Handoff}, which may take it out itself,
 * checking its characters as it goes, and says where it stopped; the scan goes on from there. Not
 * thread-safe: one per body.
 */
final class BodyScan {
  /** Where the scanned bytes go: complete characters only. */
  interface Sink {
    void accept(byte[] bytes, int offset, int length) throws IOException;
  }

  /**
   * Takes on a value string's content straight from a chunk: everything before {@code from} has
   * been passed on; returns where it stopped, {@code from} to take nothing, at most {@code limit}.
   * What it takes must be complete, well-formed characters and whole escapes (a backslash with the
   * byte after it) and no quote, so that this scan, had it looked, would have passed them on and
   * still stood inside the string's content.
   */
  interface Handoff {
    int take(byte[] bytes, int from, int limit) throws IOException;
  }

  private static final byte[] REPLACEMENT = {'\\', 'u', 'F', 'F', 'F', 'D'};

  // UTF-8
  private final byte[] carry = new byte[4];
  private int carried;
  private int pending;
  private int lead;
  private int lower = 0x80;
  private int upper = 0xBF;
  private long position;

  // member names
  private final JsonStructure structure;
  private boolean inString;
  private boolean name;
  private boolean escaped;
  private final byte[] unit = new byte[6];
  private int unitLength;

  // the run being scanned
  private int from;
  private int base;

  BodyScan(int maxDepth) {
    this.structure = new JsonStructure(maxDepth);
  }

  /**
   * Scans the next {@code length} bytes of the body, passing them on; {@code handoff} may be null.
   */
  void feed(byte[] bytes, int offset, int length, Sink sink, Handoff handoff) throws IOException {
    int end = offset + length;
    int i = offset;
    while (pending > 0 && i < end) {
      next(bytes[i] & 0xFF, position + i - offset);
      carry[carried++] = bytes[i++];
      if (pending == 0) {
        scan(carry, 0, carried, sink, null, 0);
        carried = 0;
      }
    }
    if (pending == 0) {
      base = offset;
      scan(bytes, i, end, sink, handoff, handoff == null ? end : limit(bytes, i, end));
    }
    position += length;
  }

  /** Rejects a body that ends inside a character; passes on an escape the body ended inside. */
  void finish(Sink sink) throws IOException {
    if (pending > 0) {
      throw invalid(
          position,
          "the body ends inside a character that started with " + hex(lead) + " (truncated)");
    }
    int n = unitLength;
    unitLength = 0;
    sink.accept(unit, 0, n);
  }

  /**
   * Scans {@code bytes[start, end)} (positions in the body counted from {@link #base}); a character
   * cut by {@code end} is carried to the next chunk.
   */
  private void scan(byte[] bytes, int start, int end, Sink sink, Handoff handoff, int limit)
      throws IOException {
    from = start;
    int i = start;
    if (handoff != null && inValueContent()) {
      i = from = handoff.take(bytes, i, limit);
    }
    while (i < end) {
      if (inValueContent()) {
        // A value string, most of a body: only its end, an escape or a character to check matter.
        i = ByteScan.skipToQuoteBackslashOrHigh(bytes, i, end);
        if (i == end) {
          break;
        }
      }
      int b = bytes[i] & 0xFF;
      if (b >= 0x80) {
        int next = character(bytes, i, end, sink);
        if (next < 0) {
          carried = end - i;
          System.arraycopy(bytes, i, carry, 0, carried);
          end = i;
          break;
        }
        for (; i < next; i++) {
          step(bytes, i, sink);
        }
      } else if (step(bytes, i, sink) && handoff != null) {
        // a value string has just opened: pass on what came before, and offer its content
        sink.accept(bytes, from, i + 1 - from);
        i = from = handoff.take(bytes, i + 1, limit);
      } else {
        i++;
      }
    }
    if (unitLength == 0) {
      sink.accept(bytes, from, end - from);
    }
  }

  /** Whether the scan stands in a value string's content, where only a few bytes matter. */
  private boolean inValueContent() {
    return inString && !name && !escaped && unitLength == 0;
  }

  /**
   * Follows byte {@code i}, which is checked already; returns true when it is the opening quote of
   * a value string.
   */
  private boolean step(byte[] bytes, int i, Sink sink) throws IOException {
    byte c = bytes[i];
    if (unitLength > 0) {
      unit[unitLength++] = c;
      if (unitLength == 6 || unitLength == 2 && c != 'u') {
        passUnit(sink);
        from = i + 1;
      }
    } else if (!inString) {
      JsonStructure.Opened opened = structure.outside(c);
      if (opened != JsonStructure.Opened.NOTHING) {
        inString = true;
        name = opened == JsonStructure.Opened.NAME;
        return !name;
      }
    } else if (escaped) {
      escaped = false;
    } else if (c == '\\' && name) {
      sink.accept(bytes, from, i - from);
      unit[unitLength++] = c;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == '"') {
      inString = false;
    }
    return false;
  }

  private void passUnit(Sink sink) throws IOException {
    boolean surrogate = unitLength == 6 && digit(unit[2]) == 0xD && digit(unit[3]) >= 8;
    if (surrogate && digit(unit[4]) >= 0 && digit(unit[5]) >= 0) {
      sink.accept(REPLACEMENT, 0, REPLACEMENT.length);
    } else {
      sink.accept(unit, 0, unitLength);
    }
    unitLength = 0;
  }

  /**
   * Checks the character that starts with the non-ASCII byte {@code i}: returns where it ends, or
   * -1 when {@code end} cuts it (its bytes so far well-formed, the rest pending). An ill-formed one
   * is refused once what came before it is passed on.
   */
  private int character(byte[] bytes, int i, int end, Sink sink) throws IOException {
    if (!start(bytes[i] & 0xFF)) {
      refuse(bytes, i, sink);
      throw invalid(position + i - base, badStart(bytes[i] & 0xFF));
    }
    int j = i + 1;
    for (; pending > 0 && j < end; j++) {
      int b = bytes[j] & 0xFF;
      if (b < lower || b > upper) {
        refuse(bytes, i, sink);
      }
      next(b, position + j - base);
    }
    return pending == 0 ? j : -1;
  }

  /** Passes on what came before an ill-formed character, as the scan had it. */
  private void refuse(byte[] bytes, int at, Sink sink) throws IOException {
    if (unitLength == 0) {
      sink.accept(bytes, from, at - from);
    }
  }

  /** Takes a lead byte; false when no character starts with it. */
  private boolean start(int b) {
    int form = form(b);
    lead = b;
    if (form == 0) {
      return false;
    }
    pending = (form >>> 16) - 1;
    lower = form >>> 8 & 0xFF;
    upper = form & 0xFF;
    return true;
  }

  /**
   * The form of the characters that start with {@code b}: their length, then the least and greatest
   * second byte, a byte each ({@code 0x02_80_BF}); 0 when no character starts with it.
   */
  private static int form(int b) {
    if (b >= 0xC2 && b <= 0xDF) {
      return 0x02_80_BF;
    } else if (b >= 0xE0 && b <= 0xEF) {
      return 0x03_00_00 | (b == 0xE0 ? 0xA0 : 0x80) << 8 | (b == 0xED ? 0x9F : 0xBF);
    } else if (b >= 0xF0 && b <= 0xF4) {
      return 0x04_00_00 | (b == 0xF0 ? 0x90 : 0x80) << 8 | (b == 0xF4 ? 0x8F : 0xBF);
    }
    return 0;
  }

  private void next(int b, long at) {
    if (b < lower || b > upper) {
      throw invalid(at, badContinuation(b));
    }
    lower = 0x80;
    upper = 0xBF;
    pending--;
  }

  /**
   * Where a {@link Handoff} may take to in {@code bytes[from, end)}: not into the separators the
   * chunk's complete characters end with, which the {@link SeparatorHold} after this scan holds.
   */
  private static int limit(byte[] bytes, int from, int end) {
    int complete = end;
    for (int j = end - 1; j >= from && j >= end - 3; j--) {
      int b = bytes[j] & 0xFF;
      if (b >= 0xC0) {
        complete = end - j < (b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2) ? j : end;
        break;
      }
      if (b < 0x80) {
        break;
      }
    }
    return SeparatorHold.tailStart(bytes, from, complete);
  }

  /**
   * Where the well-formed character that starts at {@code i} ends, or -1 when it is ill-formed or
   * cut by {@code end}: the same verdict as this scan's, without its state.
   */
  static int characterEnd(byte[] bytes, int i, int end) {
    int form = form(bytes[i] & 0xFF);
    int length = form >>> 16;
    if (form == 0 || end - i < length) {
      return -1;
    }
    int second = bytes[i + 1] & 0xFF;
    if (second < (form >>> 8 & 0xFF) || second > (form & 0xFF)) {
      return -1;
    }
    for (int j = i + 2; j < i + length; j++) {
      if ((bytes[j] & 0xC0) != 0x80) {
        return -1;
      }
    }
    return i + length;
  }

  private static String badStart(int b) {
    if (b < 0xC0) {
      return "byte " + hex(b) + " continues a character that was not started";
    }
    if (b < 0xC2) {
      return "byte " + hex(b) + " starts an overlong encoding";
    }
    return "byte " + hex(b) + " never occurs in UTF-8";
  }

  private String badContinuation(int b) {
    if (b >= 0x80 && b <= 0xBF) {
      String what =
          switch (lead) {
            case 0xE0, 0xF0 -> "an overlong encoding";
            case 0xED -> "a UTF-16 surrogate";
            default -> "a code point above U+10FFFF";
          };
      return hex(lead) + " " + hex(b) + " starts " + what;
    }
    return "byte " + hex(b) + " where a continuation of " + hex(lead) + " was expected";
  }

  private static RequestRejectedException invalid(long at, String detail) {
    return new RequestRejectedException(
        RejectReason.INVALID_UTF8,
        "request body is not valid UTF-8 (at byte " + at + "): " + detail);
  }

  private static String hex(int b) {
    return String.format("0x%02X", b);
  }

  private static int digit(byte b) {
    return Character.digit(b, 16);
  }
}
