package dev.pointsman.bench.routing.workload;

import dev.pointsman.bench.routing.scenario.ArrivalSpec;
import java.util.random.RandomGenerator;

/**
 * Arrival times of a renewal process (exponential or Gamma gaps, mean 1) in "operational time",
 * mapped through the integrated rate of the scenario's pattern so that the rate follows the pattern
 * and averages {@code ratePerSecond}. Not thread-safe.
 */
public final class Arrivals {
  private final ArrivalSpec spec;
  private final double ratePerMs;
  private final RandomGenerator random;
  private final double[] factors;
  private final double[] lengthsMs;
  private final double cycleMs;
  private final double cycleWork;
  private double operational;

  public Arrivals(ArrivalSpec spec, double ratePerSecond, RandomGenerator random) {
    if (!(ratePerSecond > 0)) {
      throw new IllegalArgumentException("ratePerSecond: " + ratePerSecond + " (expected > 0)");
    }
    this.spec = spec;
    this.ratePerMs = ratePerSecond / 1000.0;
    this.random = random;
    switch (spec.pattern()) {
      case "square" -> {
        factors = new double[] {spec.high(), spec.low()};
        lengthsMs = new double[] {spec.highSeconds() * 1000, spec.lowSeconds() * 1000};
      }
      case "ladder" -> {
        factors = spec.levels().stream().mapToDouble(Double::doubleValue).toArray();
        lengthsMs = new double[factors.length];
        java.util.Arrays.fill(lengthsMs, spec.stepSeconds() * 1000);
      }
      default -> {
        factors = new double[] {1.0};
        lengthsMs = new double[] {1.0};
      }
    }
    double len = 0;
    double work = 0;
    for (int i = 0; i < factors.length; i++) {
      len += lengthsMs[i];
      work += factors[i] * lengthsMs[i];
    }
    double mean = work / len;
    for (int i = 0; i < factors.length; i++) {
      factors[i] /= mean;
    }
    this.cycleMs = len;
    this.cycleWork = len;
  }

  /** The next arrival time in ms. */
  public double next() {
    double gap =
        "poisson".equals(spec.process())
            ? -Math.log(1.0 - random.nextDouble())
            : Gamma.sample(spec.shape(), random) / spec.shape();
    operational += gap / ratePerMs;
    return toRealTime(operational);
  }

  /** Inverts the integrated rate: real time at which {@code work} ms of mean-rate time passed. */
  private double toRealTime(double work) {
    double cycles = Math.floor(work / cycleWork);
    double rest = work - cycles * cycleWork;
    double t = cycles * cycleMs;
    for (int i = 0; i < factors.length; i++) {
      double phaseWork = factors[i] * lengthsMs[i];
      if (rest <= phaseWork) {
        return t + rest / factors[i];
      }
      rest -= phaseWork;
      t += lengthsMs[i];
    }
    return t;
  }
}
