package dev.pointsman.inference.error;

import java.util.Objects;

/**
 * A request that cannot be routed: carries the OpenAI error to answer with and the bounded reason
 * to count. Stack traces are not filled in: this is a normal outcome of bad client input.
 */
public final class RequestRejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient RejectReason reason;
  private final transient OpenAiError error;

  /** Rejects for {@code reason} with a message for the client. */
  public RequestRejectedException(RejectReason reason, String message) {
    super(message, null, false, false);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.error = OpenAiError.of(reason, message);
  }

  /** The metrics reason. */
  public RejectReason reason() {
    return reason;
  }

  /** The error body and status to answer with. */
  public OpenAiError error() {
    return error;
  }

  /** The HTTP status to answer with. */
  public int httpStatus() {
    return error.httpStatus();
  }
}
