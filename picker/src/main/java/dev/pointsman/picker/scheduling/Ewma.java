package dev.pointsman.picker.scheduling;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An exponentially weighted mean of about the last {@code 1 / weight} values, lock-free, unknown
 * (NaN) until {@code warmUp} values were seen. {@link #state()} and {@link #restore} carry it to a
 * late replica.
 */
final class Ewma {
  private final double weight;
  private final long warmUp;
  private final AtomicLong meanBits = new AtomicLong(Double.doubleToLongBits(Double.NaN));
  private final AtomicLong seen = new AtomicLong();

  Ewma(double weight, long warmUp) {
    this.weight = weight;
    this.warmUp = warmUp;
  }

  void add(double x) {
    seen.incrementAndGet();
    meanBits.updateAndGet(
        bits -> {
          double m = Double.longBitsToDouble(bits);
          return Double.doubleToLongBits(Double.isNaN(m) ? x : m + weight * (x - m));
        });
  }

  /** {@code {mean, values seen}}. */
  double[] state() {
    return new double[] {Double.longBitsToDouble(meanBits.get()), seen.get()};
  }

  /** Takes another replica's {@link #state()} when it has seen more values than this one. */
  synchronized void restore(double[] s) {
    if ((long) s[1] > seen.get()) {
      meanBits.set(Double.doubleToLongBits(s[0]));
      seen.set((long) s[1]);
    }
  }

  /** The mean, or NaN while fewer than the warm-up's values were seen. */
  double value() {
    return seen.get() < warmUp ? Double.NaN : Double.longBitsToDouble(meanBits.get());
  }
}
