package dev.pointsman.inference.request;

import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.io.IOException;

/**
 * The UTF-8 check that {@link BodyScan} took over, kept as the reference it is held to ({@link
 * BodyScanTest}): a body's bytes went through it and then {@link NameEscapes}, one pass each.
 *
 * <p>Checks that a body is well-formed UTF-8 (RFC 3629) as its chunks arrive, a character split
 * across chunks included. Jackson's non-blocking parser checks start and continuation bytes but
 * decodes overlong forms ({@code C0 AF} as {@code /}), lead bytes {@code F5..F7} and code points
 * above U+10FFFF without complaint, where a model server's strict decoder refuses them; so the
 * gateway would route on text the server does not see. Every byte is checked, inside strings or
 * not. Not thread-safe: one per body.
 */
final class Utf8Check {
  private final byte[] carry = new byte[4];
  private int carried;
  private int pending;
  private int lead;
  private int lower = 0x80;
  private int upper = 0xBF;
  private long position;

  /**
   * Checks the next {@code length} bytes of the body and passes on the longest run of complete,
   * well-formed characters; the start of a character cut by the chunk's end is held back until the
   * next chunk completes it. So the JSON parser sees the same bytes however the body is chunked: it
   * has read everything before an ill-formed sequence when that is rejected.
   */
  void feed(byte[] bytes, int offset, int length, BodyScan.Sink sink) throws IOException {
    int end = offset + length;
    int i = offset;
    while (pending > 0 && i < end) {
      next(bytes[i] & 0xFF, i - offset);
      carry[carried++] = bytes[i++];
      if (pending == 0) {
        sink.accept(carry, 0, carried);
        carried = 0;
      }
    }
    if (pending > 0) {
      position += length;
      return;
    }
    int from = i;
    int complete = i;
    while (i < end) {
      if (pending == 0) {
        i = ByteScan.skipAscii(bytes, i, end);
        complete = i;
        if (i == end) {
          break;
        }
        start(bytes[i] & 0xFF, i - offset, bytes, from, complete, sink);
      } else {
        next(bytes[i] & 0xFF, i - offset, bytes, from, complete, sink);
      }
      i++;
      if (pending == 0) {
        complete = i;
      }
    }
    sink.accept(bytes, from, complete - from);
    System.arraycopy(bytes, complete, carry, 0, end - complete);
    carried = end - complete;
    position += length;
  }

  /** Rejects a body that ends inside a character. */
  void finish() {
    if (pending > 0) {
      throw invalid(
          position,
          "the body ends inside a character that started with " + hex(lead) + " (truncated)");
    }
  }

  private void start(int b, int at, byte[] bytes, int from, int complete, BodyScan.Sink sink)
      throws IOException {
    lead = b;
    lower = 0x80;
    upper = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      pending = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      pending = 2;
      lower = b == 0xE0 ? 0xA0 : 0x80;
      upper = b == 0xED ? 0x9F : 0xBF;
    } else if (b >= 0xF0 && b <= 0xF4) {
      pending = 3;
      lower = b == 0xF0 ? 0x90 : 0x80;
      upper = b == 0xF4 ? 0x8F : 0xBF;
    } else {
      sink.accept(bytes, from, complete - from);
      throw invalid(position + at, badStart(b));
    }
  }

  private void next(int b, int at, byte[] bytes, int from, int complete, BodyScan.Sink sink)
      throws IOException {
    if (b < lower || b > upper) {
      sink.accept(bytes, from, complete - from);
    }
    next(b, at);
  }

  private void next(int b, int at) {
    if (b < lower || b > upper) {
      throw invalid(position + at, badContinuation(b));
    }
    lower = 0x80;
    upper = 0xBF;
    pending--;
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
}
