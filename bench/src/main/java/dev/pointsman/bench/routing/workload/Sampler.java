package dev.pointsman.bench.routing.workload;

import java.util.random.RandomGenerator;

/** Draws an index with probability proportional to fixed weights (cumulative table). */
final class Sampler {
  private final double[] cumulative;

  Sampler(double[] weights) {
    cumulative = new double[weights.length];
    double sum = 0;
    for (int i = 0; i < weights.length; i++) {
      sum += weights[i];
      cumulative[i] = sum;
    }
  }

  static Sampler zipf(int n, double s) {
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = 1.0 / Math.pow(i + 1, s);
    }
    return new Sampler(w);
  }

  int next(RandomGenerator random) {
    double u = random.nextDouble() * cumulative[cumulative.length - 1];
    int lo = 0;
    int hi = cumulative.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cumulative[mid] > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
