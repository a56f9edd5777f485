package dev.pointsman.sim.engine;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Time of one step's linear operations (the per-layer GEMMs, norms, rotary embedding, activation
 * and residual adds over all layers, plus the embedding lookup) as a function of the tokens in the
 * step, per GPU of a tensor-parallel group: {@code max(floorMs, interceptMs + msPerToken·tokens)}.
 * Below the knee the weights' read time dominates and the time is flat; above it the GEMMs are
 * compute-bound and the time grows linearly. Fitted to measured kernel times by {@link #fit}.
 *
 * @param gpu GPU type the measurement was made on
 * @param model model shape measured (its linear operations)
 * @param tensorParallel tensor-parallel degree of the measurement
 * @param floorMs flat part, ms
 * @param interceptMs intercept of the linear part, ms
 * @param msPerToken slope of the linear part, ms per token
 * @param source where the constants come from (a measured file, or a derivation)
 */
public record LinearFit(
    String gpu,
    String model,
    int tensorParallel,
    double floorMs,
    double interceptMs,
    double msPerToken,
    String source) {

  /** Validates every field. */
  public LinearFit {
    Check.name("gpu", gpu);
    Check.name("model", model);
    Check.positive("tensorParallel", tensorParallel);
    Check.positive("floorMs", floorMs);
    Check.nonNegative("interceptMs", interceptMs);
    Check.positive("msPerToken", msPerToken);
    source = source == null ? "" : source;
  }

  /** The fitted time of the linear operations for {@code tokens} tokens. */
  public double ms(long tokens) {
    return Math.max(floorMs, interceptMs + msPerToken * tokens);
  }

  /**
   * Least squares in relative error: for every split of the rows (sorted by tokens) into a flat
   * part below and a linear part above, the flat value and the line are fitted to their rows with
   * weights {@code 1/ms²}; the split with the smallest total squared relative error of {@code
   * max(flat, line)} over all rows wins. Deterministic; O(rows²).
   *
   * @param tokens tokens of each measured row
   * @param ms measured time of each row
   * @return {@code [floorMs, interceptMs, msPerToken]}
   */
  public static double[] fit(long[] tokens, double[] ms) {
    int n = tokens.length;
    if (n < 4 || ms.length != n) {
      throw new IllegalArgumentException(
          "rows: " + n + " tokens, " + ms.length + " times (expected equal counts >= 4)");
    }
    Integer[] order = new Integer[n];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingLong((Integer i) -> tokens[i]));
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = tokens[order[i]];
      y[i] = ms[order[i]];
    }
    double[] best = null;
    double bestError = Double.POSITIVE_INFINITY;
    for (int k = 1; k <= n - 2; k++) {
      double[] c = fitSplit(x, y, k);
      if (c == null) {
        continue;
      }
      double error = 0;
      for (int i = 0; i < n; i++) {
        double e = (Math.max(c[0], c[1] + c[2] * x[i]) - y[i]) / y[i];
        error += e * e;
      }
      if (error < bestError) {
        bestError = error;
        best = c;
      }
    }
    if (best == null) {
      throw new IllegalArgumentException(
          "rows: no split gives a rising line (expected rows whose" + " time grows with tokens)");
    }
    return best;
  }

  private static double[] fitSplit(double[] x, double[] y, int k) {
    double num = 0;
    double den = 0;
    for (int i = 0; i < k; i++) {
      num += 1 / y[i];
      den += 1 / (y[i] * y[i]);
    }
    double floor = num / den;
    double s = 0;
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (int i = k; i < x.length; i++) {
      double w = 1 / (y[i] * y[i]);
      s += w;
      sx += w * x[i];
      sy += w * y[i];
      sxx += w * x[i] * x[i];
      sxy += w * x[i] * y[i];
    }
    double det = s * sxx - sx * sx;
    if (!(det > 0)) {
      return null;
    }
    double slope = (s * sxy - sx * sy) / det;
    double intercept = (sy - slope * sx) / s;
    return slope > 0 && intercept >= 0 ? new double[] {floor, intercept, slope} : null;
  }
}
