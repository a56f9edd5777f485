package dev.pointsman.picker.scheduling;

import java.util.List;

/**
 * Scores every candidate of one decision. Each score is in [0,1], 1 being best. A scorer must not
 * mutate its inputs, must be deterministic for the same inputs, and must be safe to call from many
 * threads at once.
 */
public interface Scorer {

  /** The kebab-case plugin type name, e.g. {@code queue-scorer}. */
  String type();

  /**
   * Writes one score per candidate into {@code out} (same order as {@code candidates}).
   *
   * @param request the request being scheduled
   * @param candidates the candidates left after filtering (never empty)
   * @param context per-decision facts shared by scorers (prefix matches, time)
   * @param out destination array, at least {@code candidates.size()} long
   */
  void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out);
}
