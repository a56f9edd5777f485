package dev.pointsman.bench.routing.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.bench.routing.scenario.ArrivalSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ArrivalsTest {

  @Test
  void poissonHasTheRateAndCvOne() {
    double[] gaps = gaps(ArrivalSpec.poisson(), 50, 200_000);
    assertThat(1000 / mean(gaps)).isCloseTo(50, within(1.0));
    assertThat(cv(gaps)).isCloseTo(1.0, within(0.03));
  }

  @Test
  void gammaHasTheRateAndTheCv() {
    ArrivalSpec spec = new ArrivalSpec("gamma", 3.0, null, null, null, null, null, null, null);
    double[] gaps = gaps(spec, 20, 400_000);
    assertThat(1000 / mean(gaps)).isCloseTo(20, within(1.0));
    assertThat(cv(gaps)).isCloseTo(3.0, within(0.25));
  }

  @Test
  void aSquareWaveKeepsTheMeanRateAndShapesIt() {
    ArrivalSpec spec =
        new ArrivalSpec("poisson", null, "square", 3.0, 10.0, 0.33, 30.0, null, null);
    Arrivals arrivals = new Arrivals(spec, 10, new SplittableRandom(3));
    int high = 0;
    int low = 0;
    int total = 0;
    double t;
    while ((t = arrivals.next()) < 4_000_000) {
      total++;
      if (t % 40_000 < 10_000) {
        high++;
      } else {
        low++;
      }
    }
    assertThat(total / 4000.0).isCloseTo(10, within(0.3));
    // 10 s at 3× vs 30 s at 0.33×, normalised to a mean of 1: ~3:1 in counts
    assertThat((double) high / low).isCloseTo(30.0 / 9.9, within(0.2));
  }

  @Test
  void sameSeedSameTimes() {
    ArrivalSpec spec = new ArrivalSpec("gamma", 2.0, "ladder", null, null, null, null, null, 5.0);
    Arrivals a = new Arrivals(spec, 30, new SplittableRandom(9));
    Arrivals b = new Arrivals(spec, 30, new SplittableRandom(9));
    for (int i = 0; i < 1000; i++) {
      assertThat(a.next()).isEqualTo(b.next());
    }
  }

  private static double[] gaps(ArrivalSpec spec, double rate, int n) {
    Arrivals arrivals = new Arrivals(spec, rate, new SplittableRandom(42));
    List<Double> out = new ArrayList<>();
    double prev = 0;
    for (int i = 0; i < n; i++) {
      double t = arrivals.next();
      out.add(t - prev);
      prev = t;
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }

  private static double cv(double[] v) {
    double m = mean(v);
    double ss = 0;
    for (double x : v) {
      ss += (x - m) * (x - m);
    }
    return Math.sqrt(ss / v.length) / m;
  }
}
