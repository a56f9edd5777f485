package dev.pointsman.extproc;

import dev.pointsman.inference.error.OpenAiError;
import java.util.Map;

/**
 * Ends a stream with an error answered to the client as an immediate response. Carries no stack
 * trace: it is a normal outcome.
 */
public final class Rejection extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient OpenAiError error;
  private final String reason;
  private final int retryAfterSeconds;
  private final transient Map<String, String> headers;

  public Rejection(OpenAiError error, String reason, int retryAfterSeconds) {
    this(error, reason, retryAfterSeconds, Map.of());
  }

  /** A rejection whose response also sets {@code headers}. */
  public Rejection(
      OpenAiError error, String reason, int retryAfterSeconds, Map<String, String> headers) {
    super(error.message(), null, false, false);
    this.error = error;
    this.reason = reason;
    this.retryAfterSeconds = retryAfterSeconds;
    this.headers = Map.copyOf(headers);
  }

  /** Further headers to set on the error response. */
  public Map<String, String> headers() {
    return headers;
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
