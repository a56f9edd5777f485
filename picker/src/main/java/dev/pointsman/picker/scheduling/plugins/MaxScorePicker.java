package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Picker;
import java.util.random.RandomGenerator;

/**
 * {@code max-score-picker}: the highest total wins; ties are broken at random so equal endpoints
 * share load. Fallbacks follow in descending score.
 */
public final class MaxScorePicker implements Picker {
  public static final String TYPE = "max-score-picker";
  private static final double EPSILON = 1e-9;

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public int[] pick(double[] totals, int limit, RandomGenerator random) {
    int n = totals.length;
    int k = Math.max(1, Math.min(limit, n));
    int[] out = new int[k];
    boolean[] taken = new boolean[n];
    for (int slot = 0; slot < k; slot++) {
      out[slot] = best(totals, taken, random);
      taken[out[slot]] = true;
    }
    return out;
  }

  private static int best(double[] totals, boolean[] taken, RandomGenerator random) {
    int best = -1;
    int ties = 0;
    for (int i = 0; i < totals.length; i++) {
      if (taken[i]) {
        continue;
      }
      if (best < 0 || totals[i] > totals[best] + EPSILON) {
        best = i;
        ties = 1;
      } else if (Math.abs(totals[i] - totals[best]) <= EPSILON) {
        ties++;
        if (random.nextInt(ties) == 0) {
          best = i;
        }
      }
    }
    return best;
  }
}
