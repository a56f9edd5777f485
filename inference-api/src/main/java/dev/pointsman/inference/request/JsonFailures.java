package dev.pointsman.inference.request;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.io.IOException;

/** Maps Jackson's parse failures to rejections with a short, bounded message. */
final class JsonFailures {
  private static final int MAX_DETAIL = 160;

  private JsonFailures() {}

  /**
   * The rejection for a parse failure; {@code shift} bytes of the body were never given to the
   * parser before the failure (taken out of strings), so its offsets are that much short.
   */
  static RequestRejectedException rejection(IOException e, long shift) {
    RejectReason reason = reasonFor(e);
    String detail = detail(e);
    String at = offset(e, shift);
    String message =
        switch (reason) {
          case TRUNCATED -> "request body ends inside the JSON value" + at;
          case INVALID_UTF8 -> "request body is not valid UTF-8" + at + ": " + detail;
          default -> "request body is not valid JSON" + at + ": " + detail;
        };
    return new RequestRejectedException(reason, message);
  }

  /** A failure found only once the input ended: the body was cut short. */
  static RequestRejectedException truncation(IOException e, long shift) {
    return new RequestRejectedException(
        RejectReason.TRUNCATED,
        "request body ends inside the JSON value" + offset(e, shift) + ": " + detail(e));
  }

  private static RejectReason reasonFor(IOException e) {
    if (e instanceof JsonEOFException) {
      return RejectReason.TRUNCATED;
    }
    String text =
        String.valueOf(
            e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage());
    if (e instanceof StreamConstraintsException && text.contains("nesting depth")) {
      return RejectReason.TOO_DEEP;
    }
    return text.startsWith("Invalid UTF-8")
        ? RejectReason.INVALID_UTF8
        : RejectReason.MALFORMED_JSON;
  }

  private static String detail(IOException e) {
    String text = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    text = String.valueOf(text);
    int newline = text.indexOf('\n');
    text = newline >= 0 ? text.substring(0, newline) : text;
    return text.length() > MAX_DETAIL ? text.substring(0, MAX_DETAIL) + "..." : text;
  }

  private static String offset(IOException e, long shift) {
    if (e instanceof JsonProcessingException j) {
      JsonLocation location = j.getLocation();
      if (location != null && location.getByteOffset() >= 0) {
        return " (at byte " + (location.getByteOffset() + shift) + ")";
      }
    }
    return "";
  }
}
