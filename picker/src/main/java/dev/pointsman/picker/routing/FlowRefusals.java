package dev.pointsman.picker.routing;

import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.picker.flowcontrol.DropReason;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.Pressure;
import dev.pointsman.picker.flowcontrol.TokenBudgets;

/**
 * Flow control's refusals as responses: 429 with {@code retry-after} and the drop reason, except a
 * request whose TTL ran out while its pools had no endpoint left, which gets 503 as a request to a
 * pool without endpoints does.
 */
public final class FlowRefusals {
  private FlowRefusals() {}

  static RouteOutcome.Rejected of(
      DropReason reason,
      Pressure pressure,
      int retryAfterSeconds,
      FlowLimits limits,
      long maxQueuedBytesTotal) {
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
        new OpenAiError(
            429, message(reason, limits, maxQueuedBytesTotal), "rate_limit_error", code(reason)),
        label,
        retryAfterSeconds,
        dropped(reason));
  }

  /**
   * A tenant over its budget: 429 with {@code retry-after} (when enough will have refilled) and the
   * budget's limits and remaining values in OpenAI's {@code x-ratelimit-*} headers.
   */
  public static RouteOutcome.Rejected budget(String tenant, TokenBudgets.Refusal r) {
    java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();
    if (r.limitTokens() >= 0) {
      headers.put("x-ratelimit-limit-tokens", Long.toString(r.limitTokens()));
      headers.put("x-ratelimit-remaining-tokens", Long.toString(Math.max(0, r.remainingTokens())));
    }
    if (r.limitRequests() >= 0) {
      headers.put("x-ratelimit-limit-requests", Long.toString(r.limitRequests()));
      headers.put("x-ratelimit-remaining-requests", Long.toString(r.remainingRequests()));
    }
    return new RouteOutcome.Rejected(
        new OpenAiError(
            429,
            "budget of tenant '"
                + tenant
                + "' spent for now: retry in "
                + r.retryAfterSeconds()
                + " s (flowControl.budgets)",
            "rate_limit_error",
            "budget_exceeded"),
        "flow_budget",
        (int) Math.min(Integer.MAX_VALUE, r.retryAfterSeconds()),
        DroppedReason.BUDGET,
        headers);
  }

  private static String message(DropReason reason, FlowLimits limits, long maxQueuedBytesTotal) {
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
              + (maxQueuedBytesTotal == Long.MAX_VALUE
                  ? ""
                  : ", maxQueuedBytesTotal " + maxQueuedBytesTotal)
              + ")";
      case EVICTED -> "pool saturated: the sheddable request made room for a more important one";
      case DEADLINE ->
          "the time-to-first-token objective cannot be met: it has passed, or no endpoint is"
              + " predicted to give a first token before it";
      case BUDGET -> "the tenant's budget is spent for now";
    };
  }

  private static String code(DropReason reason) {
    return switch (reason) {
      case TTL -> "queue_timeout";
      case OVERFLOW -> "queue_full";
      case EVICTED -> "evicted";
      case DEADLINE -> "deadline_unmeetable";
      case BUDGET -> "budget_exceeded";
    };
  }

  private static String dropped(DropReason reason) {
    return switch (reason) {
      case TTL -> DroppedReason.QUEUE_TIMEOUT;
      case OVERFLOW -> DroppedReason.QUEUE_FULL;
      case EVICTED -> DroppedReason.EVICTED;
      case DEADLINE -> DroppedReason.DEADLINE;
      case BUDGET -> DroppedReason.BUDGET;
    };
  }
}
