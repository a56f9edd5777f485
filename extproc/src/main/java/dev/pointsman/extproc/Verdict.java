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
   * @param fallbacks the {@code envoy.lb} fallbacks metadata value (kept apart from the
   *     destination), or null to send none
   */
  record Forward(
      Map<String, String> setHeaders,
      String destination,
      ResponseListener listener,
      String model,
      String fallbacks)
      implements Verdict {
    public Forward {
      setHeaders = Map.copyOf(setHeaders);
      Objects.requireNonNull(listener, "listener");
    }

    public Forward(Map<String, String> setHeaders, String destination, ResponseListener listener) {
      this(setHeaders, destination, listener, null, null);
    }

    public Forward(
        Map<String, String> setHeaders,
        String destination,
        ResponseListener listener,
        String model) {
      this(setHeaders, destination, listener, model, null);
    }
  }

  /**
   * Answer the client directly with an error.
   *
   * @param error the OpenAI error (its status is the HTTP status)
   * @param reason a bounded metrics label
   * @param retryAfterSeconds the {@code retry-after} to send, or 0
   * @param headers further headers to set on the error response (values sent as {@code raw_value})
   */
  record Reject(
      OpenAiError error, String reason, int retryAfterSeconds, Map<String, String> headers)
      implements Verdict {
    public Reject {
      Objects.requireNonNull(error, "error");
      Objects.requireNonNull(reason, "reason");
      headers = Map.copyOf(headers);
    }

    public Reject(OpenAiError error, String reason, int retryAfterSeconds) {
      this(error, reason, retryAfterSeconds, Map.of());
    }
  }

  /**
   * Decided later, from another thread: the request waits (in flow control) with its stream open
   * and its headers reply held. The stream applies {@code verdict} when it completes, serialized
   * with the stream's own messages; if the stream ends first it runs {@code abandon} (which must
   * take the request out of wherever it waits) and, should a forward still arrive, ends that
   * forward's listener at once.
   *
   * @param verdict completes with the verdict (never {@code Deferred}), or exceptionally
   * @param abandon run at most once, when the stream ends before the verdict
   */
  record Deferred(java.util.concurrent.CompletionStage<Verdict> verdict, Runnable abandon)
      implements Verdict {
    public Deferred {
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(abandon, "abandon");
    }
  }

  /** Told how a forwarded request ended; called exactly once, however the stream ends. */
  @FunctionalInterface
  interface ResponseListener {
    void onEnd(Completion completion);

    /**
     * The response headers arrived (at most once, before {@link #onFirstByte}).
     *
     * @param status the upstream HTTP status, or 0 if unreadable
     * @param servedBy the endpoint the proxy reports served the request ({@code envoy.lb} / {@code
     *     x-gateway-destination-endpoint-served}), or null
     * @return headers to set on the response (values sent as {@code raw_value}); empty for none
     */
    default Map<String, String> onResponseHeaders(int status, String servedBy) {
      return Map.of();
    }

    /**
     * The first byte of the response arrived (at most once, before {@link #onEnd}): the first body
     * byte, or the response headers when the body is not streamed to the processor.
     *
     * @param ttftNanos from the decision to that byte
     */
    default void onFirstByte(long ttftNanos) {}

    ResponseListener NONE = c -> {};
  }
}
