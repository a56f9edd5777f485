package dev.pointsman.picker.scheduling;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The mean uncached prompt tokens of the requests the picker routes: what one waiting request in a
 * scraped queue probably costs to prefill. An exponentially weighted mean (about the last 50
 * requests), lock-free; unknown until enough requests were seen.
 */
final class QueuedWork {
  private static final double WEIGHT = 0.02;
  private static final long WARM_UP = 20;

  private final AtomicLong meanBits = new AtomicLong(Double.doubleToLongBits(Double.NaN));
  private final AtomicLong seen = new AtomicLong();

  void add(double uncachedTokens) {
    if (!(uncachedTokens >= 0)) {
      return;
    }
    seen.incrementAndGet();
    meanBits.updateAndGet(
        bits -> {
          double m = Double.longBitsToDouble(bits);
          double next = Double.isNaN(m) ? uncachedTokens : m + WEIGHT * (uncachedTokens - m);
          return Double.doubleToLongBits(next);
        });
  }

  double mean() {
    return seen.get() < WARM_UP ? Double.NaN : Double.longBitsToDouble(meanBits.get());
  }
}
