package dev.pointsman.picker.flowcontrol;

import java.util.Objects;

/**
 * What flow control knows about one request.
 *
 * @param id the request id, for logs
 * @param priority the objective's priority: higher bands go first, negative is sheddable
 * @param tenant the fairness id (a default flow when the request carries none)
 * @param promptTokens the prompt-token estimate, for the TTFT prediction
 * @param tokens the cost charged to the tenant's deficit: prompt tokens plus output tokens, at
 *     least 1
 * @param bytes the request body's size, counted against the queue's byte bound
 * @param arrivalNanos when the request arrived (injected clock)
 * @param deadlineNanos when its first token is due, or {@link #NO_DEADLINE}
 */
public record FlowRequest(
    String id,
    int priority,
    String tenant,
    long promptTokens,
    long tokens,
    long bytes,
    long arrivalNanos,
    long deadlineNanos) {
  /** The deadline of a request without a TTFT objective. */
  public static final long NO_DEADLINE = Long.MAX_VALUE;

  public FlowRequest {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(tenant, "tenant");
    promptTokens = Math.max(0, promptTokens);
    tokens = Math.max(1, tokens);
    bytes = Math.max(0, bytes);
  }

  public boolean hasDeadline() {
    return deadlineNanos != NO_DEADLINE;
  }

  public boolean sheddable() {
    return priority < 0;
  }
}
