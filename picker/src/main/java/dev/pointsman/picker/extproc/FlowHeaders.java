package dev.pointsman.picker.extproc;

import java.util.Objects;

/**
 * The request headers flow control reads, set only when it is on.
 *
 * @param fairness the header whose value is the request's tenant (fairness id)
 * @param deadline the header carrying the request's time-to-first-token objective in milliseconds
 */
public record FlowHeaders(String fairness, String deadline) {
  public static final String DEFAULT_FAIRNESS = "x-gateway-inference-fairness-id";
  public static final String DEFAULT_DEADLINE = "x-slo-ttft-ms";

  public FlowHeaders {
    Objects.requireNonNull(fairness, "fairness");
    Objects.requireNonNull(deadline, "deadline");
  }
}
