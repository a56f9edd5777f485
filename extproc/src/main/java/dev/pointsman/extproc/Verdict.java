package dev.pointsman.extproc;

import dev.pointsman.inference.error.OpenAiError;
import java.util.Map;
import java.util.Objects;

/** A handler's decision for one request. */
public sealed interface Verdict {

  /**
   * Let the request through with these headers set.
   *
   * @param setHeaders headers to set on the request (values sent as {@code raw_value})
   * @param destination the {@code envoy.lb} destination metadata value, or null to send none
   * @param listener told exactly once how the request's stream ended
   * @param model the model name the body must carry (rewritten when it differs), or null to leave
   *     the body as it is
   */
  record Forward(
      Map<String, String> setHeaders, String destination, ResponseListener listener, String model)
      implements Verdict {
    public Forward {
      setHeaders = Map.copyOf(setHeaders);
      Objects.requireNonNull(listener, "listener");
    }

    public Forward(Map<String, String> setHeaders, String destination, ResponseListener listener) {
      this(setHeaders, destination, listener, null);
    }
  }

  /**
   * Answer the client directly with an error.
   *
   * @param error the OpenAI error (its status is the HTTP status)
   * @param reason a bounded metrics label
   * @param retryAfterSeconds the {@code retry-after} to send, or 0
   */
  record Reject(OpenAiError error, String reason, int retryAfterSeconds) implements Verdict {
    public Reject {
      Objects.requireNonNull(error, "error");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Told how a forwarded request ended; called exactly once, however the stream ends. */
  @FunctionalInterface
  interface ResponseListener {
    void onEnd(Completion completion);

    /** The first byte of the response body arrived (at most once, before {@link #onEnd}). */
    default void onFirstByte() {}

    ResponseListener NONE = c -> {};
  }
}
