package dev.pointsman.extproc;

/**
 * How a routed request ended, as seen on its response stream.
 *
 * @param status the upstream HTTP status, or 0 if no response headers were seen
 * @param ttftNanos decision to first response-body byte, or -1 if none arrived
 * @param totalNanos decision to end of stream
 * @param usage the OpenAI usage the response reported, or {@link Usage#NONE}
 * @param servedBy the endpoint the proxy says served the request, or null if not reported
 * @param end how the stream ended
 */
public record Completion(
    int status, long ttftNanos, long totalNanos, Usage usage, String servedBy, End end) {

  /** How a request's stream ended. */
  public enum End {
    /** The response ended normally. */
    COMPLETED,
    /** The proxy or client went away (normal for Envoy: it resets side streams). */
    CANCELLED,
    /** The stream failed. */
    ERROR;

    private final String label = name().toLowerCase(java.util.Locale.ROOT);

    /** The name in lower case, as metrics label it. */
    public String label() {
      return label;
    }
  }
}
