package dev.pointsman.picker.scheduling.latency;

/**
 * {@code y ≈ b·x}, with {@code log b} a running mean of {@code log(y/x)} that forgets at the
 * model's rate: it cannot diverge however wild an observation is (each moves {@code log b} by a
 * bounded step), which suits time per output token, where one request stalled behind a long prefill
 * or a preemption can be tens of times slower than the next. Guarded by its own monitor.
 */
final class RatioFit extends Fit {
  /** How far one observation's ratio may count: within 1/50 to 50 times the analytic estimate. */
  private static final double MAX_LOG_RATIO = Math.log(50);

  private double logB;
  private long count;

  @Override
  synchronized double predict(double x) {
    return Math.max(0, Math.exp(logB) * x);
  }

  @Override
  synchronized void update(double x, double y, double lambda) {
    recordError(predict(x), y);
    if (!(x > 0) || !(y > 0)) {
      return;
    }
    count++;
    double r = Math.max(-MAX_LOG_RATIO, Math.min(MAX_LOG_RATIO, Math.log(y / x)));
    double w = Math.max(1 - lambda, 1.0 / count);
    logB += w * (r - logB);
  }

  @Override
  synchronized double[] coefficients() {
    return new double[] {0, Math.exp(logB)};
  }

  @Override
  synchronized double[] ownState() {
    return new double[] {logB, count};
  }

  @Override
  int stateLength() {
    return 2;
  }

  @Override
  synchronized void restoreOwn(double[] s) {
    logB = s[0];
    count = (long) s[1];
  }

  @Override
  synchronized long count() {
    return count;
  }
}
