package dev.pointsman.picker.scheduling;

import java.util.random.RandomGenerator;

/** Chooses from scored candidates: the primary first, then fallbacks in order of preference. */
public interface Picker {

  /** The kebab-case plugin type name. */
  String type();

  /**
   * Returns candidate indexes, best first, at most {@code limit} long (at least one).
   *
   * @param totals the weighted total score of each candidate
   * @param limit how many indexes to return (primary plus fallbacks)
   * @param random the randomness source (tie-breaks, sampling)
   */
  int[] pick(double[] totals, int limit, RandomGenerator random);
}
