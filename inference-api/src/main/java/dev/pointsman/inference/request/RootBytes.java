package dev.pointsman.inference.request;

import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;

/**
 * Checks the bytes around the root object, which the JSON parser is not given: before it only
 * whitespace and then {@code '{'}, after it only whitespace. Jackson's non-blocking parser
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

  /**
   * Rejects a body whose first non-whitespace byte does not open an object: as not an object when
   * it opens another JSON value, as malformed otherwise. Decided here, on the one byte, because
   * Jackson ends a root-level number differently depending on where the chunks were cut.
   */
  static void checkStart(byte b, long at) {
    if (b == '{') {
      return;
    }
    if (b >= 0 && "[\"-0123456789tfn".indexOf(b) >= 0) {
      throw new RequestRejectedException(
          RejectReason.NOT_OBJECT,
          "request body is not a JSON object (it starts with '" + (char) b + "', expected '{')");
    }
    String what =
        b < 0
            ? (b & 0xFF) == 0xEF
                ? "a byte-order mark or other non-ASCII character"
                : "a non-ASCII character"
            : b < 0x20 || b == 0x7F
                ? String.format("the control character 0x%02X", b)
                : "'" + (char) b + "'";
    throw new RequestRejectedException(
        RejectReason.MALFORMED_JSON,
        "request body is not valid JSON (at byte "
            + at
            + "): it starts with "
            + what
            + " (expected '{')");
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
