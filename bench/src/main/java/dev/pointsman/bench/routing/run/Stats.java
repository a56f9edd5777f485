package dev.pointsman.bench.routing.run;

import java.util.Arrays;

/** Percentiles (nearest rank) and means of a sample. */
public final class Stats {
  private Stats() {}

  /** The {@code q} quantile (0–1) of sorted values, nearest rank; NaN when empty. */
  public static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  public static double mean(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }

  /** Coefficient of variation (population standard deviation ÷ mean); 0 when the mean is 0. */
  public static double cv(double[] values) {
    double m = mean(values);
    if (!(m > 0)) {
      return 0;
    }
    double ss = 0;
    for (double v : values) {
      ss += (v - m) * (v - m);
    }
    return Math.sqrt(ss / values.length) / m;
  }

  static double[] sorted(double[] values, int n) {
    double[] out = Arrays.copyOf(values, n);
    Arrays.sort(out);
    return out;
  }
}
