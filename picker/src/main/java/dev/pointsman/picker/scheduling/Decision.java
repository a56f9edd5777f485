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
   * @param prediction what the scheduler predicted for the primary, to learn from later
   * @param fallbackPredictions what it predicted for each fallback, in the same order (empty when
   *     not made), to learn from when a retry lands there
   */
  record Picked(
      Candidate primary,
      List<Candidate> fallbacks,
      InFlightTracker.Ticket ticket,
      Explanation explanation,
      Prediction prediction,
      List<Prediction> fallbackPredictions)
      implements Decision {
    public Picked {
      Objects.requireNonNull(primary, "primary");
      fallbacks = List.copyOf(fallbacks);
      Objects.requireNonNull(ticket, "ticket");
      Objects.requireNonNull(prediction, "prediction");
      fallbackPredictions = List.copyOf(fallbackPredictions);
      if (!fallbackPredictions.isEmpty() && fallbackPredictions.size() != fallbacks.size()) {
        throw new IllegalArgumentException(
            "fallbackPredictions: "
                + fallbackPredictions.size()
                + " (expected none or one per fallback, "
                + fallbacks.size()
                + ")");
      }
    }

    public Picked(
        Candidate primary,
        List<Candidate> fallbacks,
        InFlightTracker.Ticket ticket,
        Explanation explanation,
        Prediction prediction) {
      this(primary, fallbacks, ticket, explanation, prediction, List.of());
    }

    /** The index of {@code address} among the fallbacks, or -1. */
    public int fallbackIndex(String address) {
      for (int i = 0; i < fallbacks.size(); i++) {
        if (fallbacks.get(i).address().equals(address)) {
          return i;
        }
      }
      return -1;
    }

    public String address() {
      return primary.address();
    }

    /** The physics-based TTFT estimate for the primary, or NaN without a latency scorer. */
    public double analyticTtftSeconds() {
      return prediction.analyticSeconds();
    }

    /** The learned TTFT prediction for the primary, or NaN without a latency scorer. */
    public double predictedTtftSeconds() {
      return prediction.predictedSeconds();
    }
  }

  /**
   * The scheduler's prediction for a pick, kept so the response can teach the models.
   *
   * @param analyticSeconds the physics-based TTFT estimate without adapter loads (what the latency
   *     model learns from), or NaN when the policy has no latency scorer
   * @param baseSeconds the latency model's TTFT prediction without adapter loads, or NaN
   * @param adapterSeconds what the adapter's load was predicted to add (0 when none)
   * @param lora where the request's adapter stood on the primary
   * @param loadsAhead adapter loads already in progress on the primary when it was picked
   * @param analyticTpotSeconds the physics-based time per output token on the primary
   * @param predictedTpotSeconds the learned time per output token on the primary
   */
  record Prediction(
      double analyticSeconds,
      double baseSeconds,
      double adapterSeconds,
      LoraState lora,
      int loadsAhead,
      double analyticTpotSeconds,
      double predictedTpotSeconds) {
    /** No prediction: nothing is learned from a request that carries it. */
    public static final Prediction NONE =
        new Prediction(Double.NaN, Double.NaN, 0, LoraState.NONE, 0, Double.NaN, Double.NaN);

    /** The whole predicted TTFT, or NaN. */
    public double predictedSeconds() {
      return baseSeconds + adapterSeconds;
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
   * @param cause which step left no candidate
   */
  record NoEndpoints(String reason, Cause cause) implements Decision {
    public NoEndpoints {
      Objects.requireNonNull(cause, "cause");
    }

    public NoEndpoints(String reason) {
      this(reason, Cause.NONE_READY);
    }

    /** Which step left no candidate. */
    public enum Cause {
      /** The pools have no endpoint, or none is ready. */
      NONE_READY,
      /** Endpoints are ready, but none is in the proxy's subset hint. */
      SUBSET_EMPTY,
      /** A filter of the policy removed every candidate. */
      FILTERED
    }
  }
}
