package dev.pointsman.picker.kvevents;

/** A message that is not a vLLM KV-event batch; {@link #reason()} is a bounded metric label. */
public final class KvEventFormatException extends Exception {
  private final String reason;

  KvEventFormatException(String reason, String message) {
    super(message);
    this.reason = reason;
  }

  KvEventFormatException(String reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** {@code frames}, {@code sequence}, {@code msgpack}, {@code batch} or {@code event}. */
  public String reason() {
    return reason;
  }
}
