package dev.pointsman.picker.scheduling.latency;

/** One endpoint's learned correction of an analytic estimate. Implementations are thread-safe. */
sealed interface Fit permits LinearFit, RatioFit {
  /** Weight of a new error in the running mean absolute percentage error. */
  double MAPE_WEIGHT = 0.05;

  /** The corrected estimate for analytic value {@code x} (in the model's unit). */
  double predict(double x);

  /** Learns from one observation {@code y} made where the analytic value was {@code x}. */
  void update(double x, double y, double lambda);

  /** Counts one prediction's error without training. */
  void recordError(double predicted, double y);

  /** Recent mean absolute percentage error, or NaN. */
  double mape();

  /** {@code (a, b)} of {@code a + b·x}. */
  double[] coefficients();

  /** Observations learned from. */
  long count();
}
