package dev.pointsman.bench.routing.workload;

import java.util.random.RandomGenerator;

/** Gamma(shape, 1) variates by Marsaglia–Tsang, with the U^(1/shape) boost for shape < 1. */
final class Gamma {
  private Gamma() {}

  static double sample(double shape, RandomGenerator random) {
    if (shape < 1) {
      double u = 1.0 - random.nextDouble();
      return sample(shape + 1, random) * Math.pow(u, 1.0 / shape);
    }
    double d = shape - 1.0 / 3.0;
    double c = 1.0 / Math.sqrt(9 * d);
    while (true) {
      double x = random.nextGaussian();
      double v = 1 + c * x;
      if (v <= 0) {
        continue;
      }
      v = v * v * v;
      double u = 1.0 - random.nextDouble();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
        return d * v;
      }
    }
  }
}
