package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Picker;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * {@code weighted-random-picker}: samples among the {@code topK} best totals with probability
 * proportional to {@code exp((total − best) / temperature)}. Simultaneous decisions against the
 * same stale snapshot then spread over the near-best endpoints instead of herding onto one.
 */
public final class WeightedRandomPicker implements Picker {
  public static final String TYPE = "weighted-random-picker";

  private final int topK;
  private final double temperature;

  public WeightedRandomPicker(int topK, double temperature) {
    if (topK < 1) {
      throw new IllegalArgumentException("picker.topK: " + topK + " (expected >= 1)");
    }
    if (!(temperature > 0)) {
      throw new IllegalArgumentException("picker.temperature: " + temperature + " (expected > 0)");
    }
    this.topK = topK;
    this.temperature = temperature;
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public int[] pick(double[] totals, int limit, RandomGenerator random) {
    int n = totals.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(totals[b], totals[a]));
    int k = Math.min(topK, n);
    double[] weights = new double[k];
    double sum = 0;
    for (int i = 0; i < k; i++) {
      weights[i] = Math.exp((totals[order[i]] - totals[order[0]]) / temperature);
      sum += weights[i];
    }
    int chosen = k - 1;
    double u = random.nextDouble() * sum;
    for (int i = 0; i < k; i++) {
      u -= weights[i];
      if (u < 0) {
        chosen = i;
        break;
      }
    }
    int m = Math.max(1, Math.min(limit, n));
    int[] out = new int[m];
    out[0] = order[chosen];
    for (int i = 0, slot = 1; slot < m; i++) {
      if (i != chosen) {
        out[slot++] = order[i];
      }
    }
    return out;
  }
}
