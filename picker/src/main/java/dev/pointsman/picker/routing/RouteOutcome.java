package dev.pointsman.picker.routing;

import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.Decision;
import java.util.Map;
import java.util.Objects;

/** What routing decided for one request; the protocol layer maps each kind to a response. */
public sealed interface RouteOutcome {

  /**
   * Routed to an endpoint.
   *
   * @param picked the scheduling decision (holds the in-flight ticket)
   * @param pool the pool of the chosen endpoint
   * @param model the model name as the model server knows it
   * @param streamed whether the response streams tokens (only then is its first byte the first
   *     token)
   * @param appProtocol what the chosen endpoint's pool speaks: the data plane connects with it
   */
  record Routed(
      Decision.Picked picked, String pool, String model, boolean streamed, AppProtocol appProtocol)
      implements RouteOutcome {
    public Routed {
      Objects.requireNonNull(picked, "picked");
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(appProtocol, "appProtocol");
    }

    /** Routed to a pool speaking HTTP/1.1. */
    public Routed(Decision.Picked picked, String pool, String model, boolean streamed) {
      this(picked, pool, model, streamed, AppProtocol.HTTP);
    }

    /** The address the request is charged to. */
    public String address() {
      return picked.address();
    }
  }

  /**
   * Refused, with the error to answer with.
   *
   * @param error the OpenAI error (its status is the HTTP status)
   * @param reason a bounded metrics label
   * @param retryAfterSeconds for 429/503, the back-off to suggest, or 0
   * @param droppedReason for 429/503, the {@link DroppedReason} value, or null
   * @param headers further headers for the error response (a budget's remaining values), or empty
   */
  record Rejected(
      OpenAiError error,
      String reason,
      int retryAfterSeconds,
      String droppedReason,
      Map<String, String> headers)
      implements RouteOutcome {
    public Rejected {
      Objects.requireNonNull(error, "error");
      Objects.requireNonNull(reason, "reason");
      headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    public Rejected(OpenAiError error, String reason, int retryAfterSeconds, String droppedReason) {
      this(error, reason, retryAfterSeconds, droppedReason, Map.of());
    }

    public Rejected(OpenAiError error, String reason, int retryAfterSeconds) {
      this(error, reason, retryAfterSeconds, null);
    }
  }
}
