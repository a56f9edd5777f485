package dev.pointsman.picker.routing;

import dev.pointsman.picker.scheduling.Decision;

/**
 * Why the picker refused a request with 429 or 503, in the response header llm-d's endpoint picker
 * uses for it, with llm-d's values where one exists.
 */
public final class DroppedReason {
  /** The response header. */
  public static final String HEADER = "x-llm-d-request-dropped-reason";

  /** A sheddable request on a saturated pool (429). llm-d's value. */
  public static final String SATURATED = "rejected-saturated";

  /** The pools have no endpoint, or none is ready (503). llm-d's value. */
  public static final String NO_ENDPOINTS = "rejected-no-endpoints";

  /** Endpoints are ready but none is in the proxy's subset hint (503). Pointsman's. */
  public static final String SUBSET_EMPTY = "rejected-subset-empty";

  /** A filter of the policy (LoRA capacity, TPOT objective) removed every endpoint (503). */
  public static final String FILTERED = "rejected-filtered";

  /** Flow control: the request waited its whole TTL in the picker's queue (429). */
  public static final String QUEUE_TIMEOUT = "rejected-queue-timeout";

  /** Flow control: the queue was full and nothing of a lower band could make room (429). */
  public static final String QUEUE_FULL = "rejected-queue-full";

  /** Flow control: a queued sheddable request made room for a more important one (429). */
  public static final String EVICTED = "rejected-evicted";

  /** Flow control: the request's TTFT objective could not be met (429). */
  public static final String DEADLINE = "rejected-deadline";

  /** Flow control: the tenant's token or request budget is spent for now (429). */
  public static final String BUDGET = "rejected-budget";

  /** A 429 or 503 with no more specific reason. llm-d's value. */
  public static final String INTERNAL = "rejected-internal";

  private DroppedReason() {}

  static String of(Decision.NoEndpoints.Cause cause) {
    return switch (cause) {
      case NONE_READY -> NO_ENDPOINTS;
      case SUBSET_EMPTY -> SUBSET_EMPTY;
      case FILTERED -> FILTERED;
    };
  }
}
