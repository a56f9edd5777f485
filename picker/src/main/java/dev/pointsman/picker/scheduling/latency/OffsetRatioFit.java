package dev.pointsman.picker.scheduling.latency;

/**
 * {@code y ≈ a + b·x}: a fixed overhead {@code a} the analytic estimate does not see (the server's
 * HTTP and tokenization time before a request reaches the engine queue), and a factor {@code b} by
 * which the endpoint is slower or faster than its estimate. Each is learned where it shows: {@code
 * a} from requests whose estimate is small (below {@code smallX}: their time is mostly overhead),
 * as the running mean of {@code y − b·x}, kept within {@code [0, maxOffset]}; {@code b} from
 * requests whose estimate is large (at least {@code largeX}), as the ratio of the running means of
 * {@code y − a} and {@code x}, each observation counted at most {@link #MAX_RATIO} times its
 * estimate (a stalled request moves it by a bounded step). Both forget at the model's rate.
 *
 * <p>Unlike a least-squares line, the factor is never inferred from a narrow range of small
 * estimates: a fit learned in a quiet phase keeps the factor it last saw under load, or 1, and does
 * not extrapolate wildly into the next burst. Guarded by its own monitor.
 */
final class OffsetRatioFit extends Fit {
  /** The most one observation counts toward the factor: 50 times its analytic estimate. */
  static final double MAX_RATIO = 50;

  private final double maxOffset;
  private final double smallX;
  private final double largeX;
  private double a;
  private double meanX;
  private double meanY;
  private long count;
  private long offsetCount;
  private long factorCount;

  /**
   * @param maxOffset the largest overhead learned
   * @param smallX estimates below this teach the overhead
   * @param largeX estimates at least this teach the factor
   */
  OffsetRatioFit(double maxOffset, double smallX, double largeX) {
    this.maxOffset = maxOffset;
    this.smallX = smallX;
    this.largeX = largeX;
  }

  @Override
  synchronized double predict(double x) {
    return Math.max(0, a + factor() * x);
  }

  private double factor() {
    return meanX > 0 ? meanY / meanX : 1.0;
  }

  @Override
  synchronized void update(double x, double y, double lambda) {
    recordError(predict(x), y);
    if (!(x >= 0) || !(y >= 0) || Double.isInfinite(x) || Double.isInfinite(y)) {
      return;
    }
    count++;
    if (x < smallX) {
      offsetCount++;
      double w = Math.max(1 - lambda, 1.0 / offsetCount);
      double r = Math.max(-maxOffset, Math.min(maxOffset, y - factor() * x));
      a = Math.max(0, Math.min(maxOffset, a + w * (r - a)));
    } else if (x >= largeX) {
      factorCount++;
      double w = Math.max(1 - lambda, 1.0 / factorCount);
      meanX += w * (x - meanX);
      meanY += w * (Math.min(MAX_RATIO * x, Math.max(0, y - a)) - meanY);
    }
  }

  @Override
  synchronized double[] coefficients() {
    return new double[] {a, factor()};
  }

  @Override
  synchronized double[] ownState() {
    return new double[] {a, meanX, meanY, count, offsetCount, factorCount};
  }

  @Override
  int stateLength() {
    return 6;
  }

  @Override
  synchronized void restoreOwn(double[] s) {
    a = s[0];
    meanX = s[1];
    meanY = s[2];
    count = (long) s[3];
    offsetCount = (long) s[4];
    factorCount = (long) s[5];
  }

  @Override
  synchronized long count() {
    return count;
  }
}
