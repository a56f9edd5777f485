package dev.pointsman.bench.routing.policy;

/**
 * A policy's answer for one request.
 *
 * @param pod the chosen pod, or -1
 * @param outcome what happened
 * @param predictedTtftMs the policy's own TTFT prediction for the chosen pod, or NaN
 * @param predictedTpotMs the policy's own time-per-output-token prediction there, or NaN
 */
public record Route(int pod, Outcome outcome, double predictedTtftMs, double predictedTpotMs) {

  /** What a policy did with a request. */
  public enum Outcome {
    ROUTED,
    SHED,
    FAILED,
    /** Waiting in the gateway's flow control: routed or refused later. */
    QUEUED
  }

  public static Route to(int pod) {
    return new Route(pod, Outcome.ROUTED, Double.NaN, Double.NaN);
  }

  public static Route to(int pod, double predictedTtftMs) {
    return new Route(pod, Outcome.ROUTED, predictedTtftMs, Double.NaN);
  }

  public static Route to(int pod, double predictedTtftMs, double predictedTpotMs) {
    return new Route(pod, Outcome.ROUTED, predictedTtftMs, predictedTpotMs);
  }

  public static Route shed() {
    return new Route(-1, Outcome.SHED, Double.NaN, Double.NaN);
  }

  public static Route queued() {
    return new Route(-1, Outcome.QUEUED, Double.NaN, Double.NaN);
  }

  public static Route failed() {
    return new Route(-1, Outcome.FAILED, Double.NaN, Double.NaN);
  }
}
