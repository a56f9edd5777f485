package dev.pointsman.picker.scheduling.plugins;

/** Min-max normalisation where less is better: the least loaded scores 1, the most 0. */
final class MinMax {
  private MinMax() {}

  static void lowerIsBetter(double[] values, int n, double[] out) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      min = Math.min(min, values[i]);
      max = Math.max(max, values[i]);
    }
    double range = max - min;
    for (int i = 0; i < n; i++) {
      out[i] = range <= 0 ? 1.0 : (max - values[i]) / range;
    }
  }
}
