package dev.pointsman.cli.demo;

import java.util.List;

/** Quantiles and means of measured latencies. */
final class Stats {
  private Stats() {}

  static double quantile(List<Double> values, double q) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }
}
