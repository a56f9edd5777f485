package dev.pointsman.inference.request;

import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;

/**
 * Checks the bytes around the root object, which the JSON parser is not given: before it only
 * whitespace and then an ASCII character, after it only whitespace. Jackson's non-blocking parser
 * takes a byte-order mark at the root level differently depending on where the chunks are cut, and
 * fails with an internal error on some such inputs; a body with one is refused here instead.
 */
final class RootBytes {
  private RootBytes() {}

  /** The index of the first non-whitespace byte in {@code [from, end)}, or {@code end}. */
  static int skipSpace(byte[] bytes, int from, int end) {
    int i = from;
    while (i < end && isSpace(bytes[i])) {
      i++;
    }
    return i;
  }

  /** Rejects a first non-whitespace byte that no JSON text starts with. */
  static void checkStart(byte b, long at) {
    if (b < 0) {
      String what =
          (b & 0xFF) == 0xEF
              ? "a byte-order mark or other non-ASCII character"
              : "a non-ASCII character";
      throw new RequestRejectedException(
          RejectReason.MALFORMED_JSON,
          "request body is not valid JSON (at byte "
              + at
              + "): it starts with "
              + what
              + " (expected '{')");
    }
  }

  /** Rejects anything but whitespace in {@code [from, end)}, the bytes after the root object. */
  static void checkTrailing(byte[] bytes, int from, int end, long at) {
    int i = skipSpace(bytes, from, end);
    if (i < end) {
      throw new RequestRejectedException(
          RejectReason.MALFORMED_JSON,
          "request body has data after the JSON object (at byte " + (at + i - from) + ")");
    }
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\n' || b == '\r' || b == '\t';
  }
}
