package dev.pointsman.picker.routing;

import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.picker.flowcontrol.DropReason;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.Pressure;

/**
 * Flow control's refusals as responses: 429 with {@code retry-after} and the drop reason, except a
 * request whose TTL ran out while its pools had no endpoint left, which gets 503 as a request to a
 * pool without endpoints does.
 */
final class FlowRefusals {
  private FlowRefusals() {}

  static RouteOutcome.Rejected of(
      DropReason reason, Pressure pressure, int retryAfterSeconds, FlowLimits limits) {
    String label = "flow_" + reason.label();
    if (reason == DropReason.TTL && !pressure.hasEndpoints()) {
      return new RouteOutcome.Rejected(
          new OpenAiError(
              503,
              "no ready endpoint: the request waited "
                  + limits.ttlNanos() / 1_000_000
                  + " ms (flowControl.ttlMillis) in the picker's queue",
              "server_error",
              "no_ready_endpoint"),
          label,
          retryAfterSeconds,
          DroppedReason.NO_ENDPOINTS);
    }
    return new RouteOutcome.Rejected(
        new OpenAiError(429, message(reason, limits), "rate_limit_error", code(reason)),
        label,
        retryAfterSeconds,
        dropped(reason));
  }

  private static String message(DropReason reason, FlowLimits limits) {
    return switch (reason) {
      case TTL ->
          "pool saturated: the request waited "
              + limits.ttlNanos() / 1_000_000
              + " ms (flowControl.ttlMillis) in the picker's queue";
      case OVERFLOW ->
          "pool saturated and the picker's queue is full (flowControl.maxQueued "
              + limits.maxQueued()
              + ", maxQueuedBytes "
              + limits.maxQueuedBytes()
              + ")";
      case EVICTED -> "pool saturated: the sheddable request made room for a more important one";
      case DEADLINE ->
          "the time-to-first-token objective cannot be met: it has passed, or no endpoint is"
              + " predicted to give a first token before it";
    };
  }

  private static String code(DropReason reason) {
    return switch (reason) {
      case TTL -> "queue_timeout";
      case OVERFLOW -> "queue_full";
      case EVICTED -> "evicted";
      case DEADLINE -> "deadline_unmeetable";
    };
  }

  private static String dropped(DropReason reason) {
    return switch (reason) {
      case TTL -> DroppedReason.QUEUE_TIMEOUT;
      case OVERFLOW -> DroppedReason.QUEUE_FULL;
      case EVICTED -> DroppedReason.EVICTED;
      case DEADLINE -> DroppedReason.DEADLINE;
    };
  }
}
