package dev.pointsman.picker.telemetry;

import java.util.List;
import java.util.Map;

/**
 * One decision as {@code /debug/decisions} shows it: where a request went and why.
 *
 * @param at wall-clock time, ISO-8601
 * @param requestId the request's id
 * @param model the model requested
 * @param result {@code routed}, or the reason it was not
 * @param pool the chosen endpoint's pool, or null
 * @param chosen the chosen endpoint, or null
 * @param decisionMicros time spent deciding
 * @param weights each scorer's weight
 * @param candidates every candidate with its per-scorer scores and weighted total, best first
 */
public record DecisionRecord(
    String at,
    String requestId,
    String model,
    String result,
    String pool,
    String chosen,
    double decisionMicros,
    Map<String, Double> weights,
    List<CandidateScores> candidates) {

  /**
   * @param address the candidate endpoint
   * @param total weighted total
   * @param scores each scorer's score
   * @param missingSignals the signals its metrics lack now (the scorers ran on fallbacks for them),
   *     e.g. {@code kv_capacity}; empty when complete
   */
  public record CandidateScores(
      String address, double total, Map<String, Double> scores, List<String> missingSignals) {}
}
