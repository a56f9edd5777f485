package dev.pointsman.inference.request;

import java.io.IOException;

/**
 * The member-name escape rewrite that {@link BodyScan} took over, kept as the reference it is held
 * to ({@link BodyScanTest}), after {@link Utf8Check}.
 *
 * <p>Replaces a {@code \}{@code u} escape of a UTF-16 surrogate inside an object's member name by
 * {@code \}{@code uFFFD}, the same length, so offsets do not move. Jackson's non-blocking parser
 * (2.21) refuses an escaped surrogate pair in a name as "Invalid UTF-8", though it is valid JSON
 * (Python's {@code json.dumps} writes every character past U+FFFF so); no name the extractor looks
 * for contains one, so which non-ASCII name it was does not matter. Strings that are values are
 * passed on as they are. A name's escape is passed on whole, even when cut by a chunk. Not
 * thread-safe.
 */
final class NameEscapes {
  private static final byte[] REPLACEMENT = {'\\', 'u', 'F', 'F', 'F', 'D'};

  private final JsonStructure structure;
  private boolean inString;
  private boolean name;
  private boolean escaped;
  private final byte[] unit = new byte[6];
  private int unitLength;

  NameEscapes(int maxDepth) {
    this.structure = new JsonStructure(maxDepth);
  }

  /** Passes on {@code length} bytes of {@code bytes} from {@code offset}. */
  void feed(byte[] bytes, int offset, int length, BodyScan.Sink sink) throws IOException {
    int end = offset + length;
    int from = offset;
    for (int i = offset; i < end; i++) {
      if (inString && !name && !escaped && unitLength == 0) {
        // A value string, most of a body: only its end or an escape matters.
        i = ByteScan.skipToQuoteOrBackslash(bytes, i, end);
        if (i == end) {
          break;
        }
      }
      byte c = bytes[i];
      if (unitLength > 0) {
        unit[unitLength++] = c;
        if (unitLength == 6 || unitLength == 2 && c != 'u') {
          passUnit(sink);
          from = i + 1;
        }
      } else if (!inString) {
        structural(c);
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
    }
    if (unitLength == 0) {
      sink.accept(bytes, from, end - from);
    }
  }

  /** Passes on an escape the body ended inside. */
  void finish(BodyScan.Sink sink) throws IOException {
    int n = unitLength;
    unitLength = 0;
    sink.accept(unit, 0, n);
  }

  private void passUnit(BodyScan.Sink sink) throws IOException {
    boolean surrogate = unitLength == 6 && hex(unit[2]) == 0xD && hex(unit[3]) >= 8;
    if (surrogate && hex(unit[4]) >= 0 && hex(unit[5]) >= 0) {
      sink.accept(REPLACEMENT, 0, REPLACEMENT.length);
    } else {
      sink.accept(unit, 0, unitLength);
    }
    unitLength = 0;
  }

  private void structural(byte c) {
    JsonStructure.Opened opened = structure.outside(c);
    if (opened != JsonStructure.Opened.NOTHING) {
      inString = true;
      name = opened == JsonStructure.Opened.NAME;
    }
  }

  private static int hex(byte b) {
    return Character.digit(b, 16);
  }
}
