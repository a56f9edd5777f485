package dev.pointsman.picker.scheduling;

import java.util.List;
import java.util.Objects;

/** The outcome of scheduling one request. The protocol layer maps each kind to a response. */
public sealed interface Decision {

  /**
   * An endpoint was chosen.
   *
   * @param primary the chosen endpoint
   * @param fallbacks further endpoints in order of preference (may be empty)
   * @param ticket the in-flight hold on the primary; release it when the request ends
   * @param explanation every scorer's score per candidate
   * @param analyticTtftSeconds the physics-based TTFT estimate for the primary (what the latency
   *     model learns from), or NaN when the policy has no latency scorer
   * @param predictedTtftSeconds the learned prediction for the primary, or NaN
   */
  record Picked(
      Candidate primary,
      List<Candidate> fallbacks,
      InFlightTracker.Ticket ticket,
      Explanation explanation,
      double analyticTtftSeconds,
      double predictedTtftSeconds)
      implements Decision {
    public Picked {
      Objects.requireNonNull(primary, "primary");
      fallbacks = List.copyOf(fallbacks);
      Objects.requireNonNull(ticket, "ticket");
    }

    public String address() {
      return primary.address();
    }
  }

  /**
   * The pool is saturated and the request may be shed.
   *
   * @param reason why, for the error message
   * @param retryAfterSeconds suggested client back-off
   */
  record Shed(String reason, int retryAfterSeconds) implements Decision {}

  /**
   * Nothing can serve the request.
   *
   * @param reason why, for the error message
   */
  record NoEndpoints(String reason) implements Decision {}
}
