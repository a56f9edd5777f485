package dev.pointsman.bench.extproc;

import dev.pointsman.bench.routing.run.Stats;
import java.util.Arrays;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * One figure's ratios picker / echo, one per round, and their mean with the half-width of its 95%
 * Student-t interval over rounds. A round whose echo figure is zero or not finite (no young
 * collection in the window, say) has no ratio: it is NaN in {@link #perRound} and left out of the
 * mean.
 *
 * @param perRound the ratio of each round, in round order
 * @param mean the mean of the defined ratios; NaN when none is
 * @param halfWidth95 half-width of the 95% interval of that mean; NaN with fewer than two ratios
 */
record RoundRatios(double[] perRound, double mean, double halfWidth95) {
  RoundRatios {
    perRound = perRound.clone();
  }

  /** The ratios of {@code picker[i] / echo[i]}; both arrays hold one figure per round. */
  static RoundRatios of(double[] picker, double[] echo) {
    if (picker.length != echo.length) {
      throw new IllegalArgumentException(
          "rounds: "
              + picker.length
              + " picker figures, "
              + echo.length
              + " echo (expected equal)");
    }
    double[] ratios = new double[picker.length];
    int defined = 0;
    for (int i = 0; i < ratios.length; i++) {
      boolean ok = echo[i] > 0 && Double.isFinite(echo[i]) && Double.isFinite(picker[i]);
      ratios[i] = ok ? picker[i] / echo[i] : Double.NaN;
      defined += ok ? 1 : 0;
    }
    double[] kept = Arrays.stream(ratios).filter(r -> !Double.isNaN(r)).toArray();
    return new RoundRatios(
        ratios, defined == 0 ? Double.NaN : Stats.mean(kept), Stats.halfWidth95(kept));
  }

  @Override
  public double[] perRound() {
    return perRound.clone();
  }

  /** {@code 1.59× ± 0.12}, or {@code 1.59×} with one ratio, or {@code n/a} with none. */
  String interval() {
    if (Double.isNaN(mean)) {
      return "n/a";
    }
    return Double.isNaN(halfWidth95)
        ? String.format(Locale.ROOT, "%.2f×", mean)
        : String.format(Locale.ROOT, "%.2f× ± %.2f", mean, halfWidth95);
  }

  /** The per-round ratios, {@code 1.50, 1.62, n/a}. */
  String rounds() {
    StringJoiner j = new StringJoiner(", ");
    for (double r : perRound) {
      j.add(Double.isNaN(r) ? "n/a" : String.format(Locale.ROOT, "%.2f", r));
    }
    return j.toString();
  }
}
