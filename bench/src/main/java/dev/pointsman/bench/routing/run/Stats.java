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

  /** Two-sided 95% Student-t critical values for 1..30 degrees of freedom. */
  private static final double[] T95 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042
  };

  /**
   * Half-width of the 95% confidence interval of the mean of {@code values} (Student's t with n − 1
   * degrees of freedom, sample standard deviation); NaN with fewer than two values. Past 30 degrees
   * of freedom the normal 1.96.
   */
  public static double halfWidth95(double[] values) {
    int n = values.length;
    if (n < 2) {
      return Double.NaN;
    }
    double m = mean(values);
    double ss = 0;
    for (double v : values) {
      ss += (v - m) * (v - m);
    }
    double t = n - 1 <= T95.length ? T95[n - 2] : 1.96;
    return t * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
  }

  public static double[] sorted(double[] values, int n) {
    double[] out = Arrays.copyOf(values, n);
    Arrays.sort(out);
    return out;
  }
}
