package dev.pointsman.bench.routing.policy;

import java.util.random.RandomGenerator;

/** Argmin with a random tie-break, so equal pods share load. */
final class Ties {
  private Ties() {}

  /**
   * The index of the least value, ties broken at random; -1 when every value is +infinity (a
   * policy's mark for a pod it may not choose, such as one out of the ready endpoints).
   */
  static int argMin(double[] values, RandomGenerator random) {
    int best = -1;
    int ties = 0;
    for (int i = 0; i < values.length; i++) {
      if (values[i] == Double.POSITIVE_INFINITY) {
        continue;
      }
      if (best < 0 || values[i] < values[best] - 1e-12) {
        best = i;
        ties = 1;
      } else if (Math.abs(values[i] - values[best]) <= 1e-12) {
        ties++;
        if (random.nextInt(ties) == 0) {
          best = i;
        }
      }
    }
    return best;
  }
}
