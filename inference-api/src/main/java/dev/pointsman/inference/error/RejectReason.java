package dev.pointsman.inference.error;

/**
 * Why a request was rejected before routing: a small, fixed set usable as a metrics label, each
 * with the HTTP status, OpenAI error type and error code it maps to.
 */
public enum RejectReason {
  MALFORMED_JSON(400, "invalid_json"),
  EMPTY_BODY(400, "invalid_json"),
  NOT_OBJECT(400, "invalid_json"),
  TRUNCATED(400, "invalid_json"),
  INVALID_UTF8(400, "invalid_json"),
  TOO_DEEP(400, "invalid_json"),
  MODEL_NOT_STRING(400, "invalid_model"),
  EMPTY_MODEL(400, "invalid_model"),
  MODEL_TOO_LONG(400, "invalid_model"),
  DUPLICATE_MODEL(400, "duplicate_model"),
  MISSING_MODEL(400, "missing_model"),
  UNKNOWN_MODEL(404, "model_not_found"),
  TOO_LARGE(413, "body_too_large"),
  BAD_CONTENT_TYPE(415, "unsupported_media_type");

  private final int httpStatus;
  private final String code;

  RejectReason(int httpStatus, String code) {
    this.httpStatus = httpStatus;
    this.code = code;
  }

  /** The metrics label: the lower-case constant name, e.g. {@code malformed_json}. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The HTTP status answered to the client. */
  public int httpStatus() {
    return httpStatus;
  }

  /** The OpenAI error code, e.g. {@code model_not_found}. */
  public String code() {
    return code;
  }

  /** The OpenAI error type for this reason's status. */
  public String type() {
    return OpenAiError.typeFor(httpStatus);
  }
}
