package dev.pointsman.picker.scheduling.latency;

/**
 * One endpoint's learned correction of an analytic estimate, with the running error of its
 * predictions. Thread-safe: every method holds the fit's monitor.
 */
abstract sealed class Fit permits OffsetRatioFit, RatioFit {
  /** Weight of a new error in the running mean absolute percentage error. */
  static final double MAPE_WEIGHT = 0.05;

  private double mape = Double.NaN;

  /** The corrected estimate for analytic value {@code x} (in the model's unit). */
  abstract double predict(double x);

  /** Learns from one observation {@code y} made where the analytic value was {@code x}. */
  abstract void update(double x, double y, double lambda);

  /** {@code (a, b)} of {@code a + b·x}. */
  abstract double[] coefficients();

  /** Observations learned from. */
  abstract long count();

  /** The fit's whole state, for a late replica's snapshot; its recent error last. */
  final synchronized double[] state() {
    double[] own = ownState();
    double[] out = java.util.Arrays.copyOf(own, own.length + 1);
    out[own.length] = mape;
    return out;
  }

  /** Replaces the state with one {@link #state} made; false (and unchanged) if it does not fit. */
  final synchronized boolean restore(double[] state) {
    if (state.length != stateLength() + 1) {
      return false;
    }
    restoreOwn(state);
    mape = state[state.length - 1];
    return true;
  }

  abstract double[] ownState();

  abstract int stateLength();

  abstract void restoreOwn(double[] state);

  /** Counts one prediction's error without training. */
  final synchronized void recordError(double predicted, double y) {
    double error = Math.abs(predicted - y) / Math.max(y, 1e-3);
    mape = Double.isNaN(mape) ? error : (1 - MAPE_WEIGHT) * mape + MAPE_WEIGHT * error;
  }

  /** Recent mean absolute percentage error, or NaN. */
  final synchronized double mape() {
    return mape;
  }
}
