package dev.pointsman.picker.scheduling.latency;

/**
 * Two-parameter recursive least squares, {@code y ≈ a + b·x}, with exponential forgetting and a
 * prior at {@code a = 0, b = 1}. Guarded by its own monitor.
 */
final class LinearFit implements Fit {
  /** Prior variance of the coefficients: how far the first observations may pull them. */
  private static final double PRIOR_A = 0.01;

  private static final double PRIOR_B = 1.0;
  private static final double MIN_B = 0.05;
  private static final double MAX_B = 50;

  private double a;
  private double b = 1;
  private double paa = PRIOR_A;
  private double pab;
  private double pbb = PRIOR_B;
  private double mape = Double.NaN;
  private long count;

  @Override
  public synchronized double predict(double x) {
    return Math.max(0, a + clampB(b) * x);
  }

  /** Counts one prediction's error without training: the running mean absolute % error. */
  @Override
  public synchronized void recordError(double predicted, double y) {
    double error = Math.abs(predicted - y) / Math.max(y, 1e-3);
    mape = Double.isNaN(mape) ? error : (1 - MAPE_WEIGHT) * mape + MAPE_WEIGHT * error;
  }

  @Override
  public synchronized void update(double x, double y, double lambda) {
    recordError(Math.max(0, a + clampB(b) * x), y);
    count++;
    // gain k = P·φ / (λ + φᵀ·P·φ), with φ = (1, x)
    double p1 = paa + pab * x;
    double p2 = pab + pbb * x;
    double denom = lambda + p1 + x * p2;
    double k1 = p1 / denom;
    double k2 = p2 / denom;
    double residual = y - (a + b * x);
    a += k1 * residual;
    b += k2 * residual;
    // P = (P − k·φᵀ·P) / λ
    double naa = (paa - k1 * p1) / lambda;
    double nab = (pab - k1 * p2) / lambda;
    double nbb = (pbb - k2 * p2) / lambda;
    paa = bound(naa);
    pbb = bound(nbb);
    // keep P positive definite when the bounds above clipped a diagonal term
    double limit = Math.sqrt(paa * pbb) * 0.999;
    pab = Math.max(-limit, Math.min(limit, nab));
    b = clampB(b);
  }

  @Override
  public synchronized double mape() {
    return mape;
  }

  @Override
  public synchronized double[] coefficients() {
    return new double[] {a, b};
  }

  @Override
  public synchronized long count() {
    return count;
  }

  private static double clampB(double v) {
    return Math.max(MIN_B, Math.min(MAX_B, v));
  }

  /** Keeps the covariance from blowing up when inputs stop varying (forgetting winds it up). */
  private static double bound(double v) {
    return Math.max(1e-9, Math.min(1e3, v));
  }
}
