package dev.pointsman.extproc;

import dev.pointsman.inference.error.OpenAiError;

/**
 * Ends a stream with an error answered to the client as an immediate response. Carries no stack
 * trace: it is a normal outcome.
 */
public final class Rejection extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient OpenAiError error;
  private final String reason;
  private final int retryAfterSeconds;

  public Rejection(OpenAiError error, String reason, int retryAfterSeconds) {
    super(error.message(), null, false, false);
    this.error = error;
    this.reason = reason;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  public OpenAiError error() {
    return error;
  }

  public String reason() {
    return reason;
  }

  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
