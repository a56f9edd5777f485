package dev.pointsman.picker.scheduling;

import java.util.List;

/**
 * Why a decision went where it did: each scorer's score for each candidate, the weights, and the
 * weighted totals. Arrays are owned by this object; callers must not modify them.
 *
 * @param scorers scorer type names, in policy order
 * @param weights scorer weights, same order
 * @param candidates candidate addresses
 * @param scores {@code scores[s][c]}: scorer s's score of candidate c
 * @param totals weighted sum per candidate
 * @param chosen index of the chosen candidate
 * @param predictedTtft the learned TTFT prediction per candidate in seconds (adapter loads
 *     included), or null when the policy has no latency scorer
 * @param promptBlocks the chained hashes of the prompt's prefix blocks ({@link
 *     dev.pointsman.picker.scheduling.prefix.PrefixHasher}), or an empty array
 */
public record Explanation(
    List<String> scorers,
    double[] weights,
    List<String> candidates,
    double[][] scores,
    double[] totals,
    int chosen,
    double[] predictedTtft,
    long[] promptBlocks) {

  private static final long[] NO_BLOCKS = new long[0];

  public Explanation {
    promptBlocks = promptBlocks == null ? NO_BLOCKS : promptBlocks;
  }

  /** Without predictions or prompt blocks. */
  public Explanation(
      List<String> scorers,
      double[] weights,
      List<String> candidates,
      double[][] scores,
      double[] totals,
      int chosen) {
    this(scorers, weights, candidates, scores, totals, chosen, null, null);
  }

  /** The predicted TTFT of candidate {@code address} in seconds, or NaN when none was made. */
  public double predictedTtftSeconds(String address) {
    if (predictedTtft == null) {
      return Double.NaN;
    }
    int i = candidates.indexOf(address);
    return i < 0 ? Double.NaN : predictedTtft[i];
  }
}
