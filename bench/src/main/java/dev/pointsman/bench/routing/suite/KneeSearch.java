package dev.pointsman.bench.routing.suite;

import java.util.function.DoublePredicate;

/**
 * The highest request rate that passes, assuming a policy that passes at a rate passes at every
 * lower one. From {@code start}: if it passes, the rate is raised by {@link #STEP} until one fails
 * (or {@code start × MAX_FACTOR} passes); else lowered by it until one passes (or {@code start /
 * MAX_FACTOR} fails); then the bracket is bisected until its ends are within {@code precision} of
 * each other, relatively. Each rate is run once.
 */
final class KneeSearch {
  static final double STEP = 1.25;
  static final double MAX_FACTOR = 16;

  private KneeSearch() {}

  /**
   * The search's outcome.
   *
   * @param passing the highest rate run that passed (NaN when none did)
   * @param failing the lowest rate above it run that failed (NaN when none did: the knee is at
   *     least {@code passing}, the highest rate tried)
   * @param runs how many rates were run
   */
  record Knee(double passing, double failing, int runs) {
    /** Whether a passing rate and a failing one above it were found. */
    boolean bracketed() {
      return !Double.isNaN(passing) && !Double.isNaN(failing);
    }
  }

  static Knee highest(double start, double precision, DoublePredicate passes) {
    if (!(start > 0) || Double.isInfinite(start)) {
      throw new IllegalArgumentException("start: " + start + " (expected a rate > 0)");
    }
    if (!(precision > 0 && precision < 1)) {
      throw new IllegalArgumentException("precision: " + precision + " (expected in (0, 1))");
    }
    int runs = 1;
    double lo;
    double hi;
    if (passes.test(start)) {
      lo = start;
      hi = Double.NaN;
      for (double r = start * STEP; r <= start * MAX_FACTOR; r *= STEP) {
        runs++;
        if (!passes.test(r)) {
          hi = r;
          break;
        }
        lo = r;
      }
      if (Double.isNaN(hi)) {
        return new Knee(lo, Double.NaN, runs);
      }
    } else {
      hi = start;
      lo = Double.NaN;
      for (double r = start / STEP; r >= start / MAX_FACTOR; r /= STEP) {
        runs++;
        if (passes.test(r)) {
          lo = r;
          break;
        }
        hi = r;
      }
      if (Double.isNaN(lo)) {
        return new Knee(Double.NaN, hi, runs);
      }
    }
    while (hi - lo > precision * lo) {
      double mid = (lo + hi) / 2;
      runs++;
      if (passes.test(mid)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return new Knee(lo, hi, runs);
  }
}
