package dev.pointsman.picker.scheduling;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The mean uncached prompt tokens of the requests the picker routes, pool-wide and per endpoint:
 * what one waiting request in an endpoint's scraped queue probably costs to prefill. Endpoints
 * differ: one that holds a shared document in cache is sent that document's questions, a few
 * uncached tokens each, while another gets the misses. An endpoint's own mean is used once it has
 * seen {@link #WARM_UP} requests, the pool-wide one until then.
 *
 * <p>Exponentially weighted means (about the last 50 requests), lock-free; bounded: one mean per
 * endpoint, forgotten when the endpoint leaves every pool.
 */
public final class QueuedWork {
  private static final double WEIGHT = 0.02;
  static final long WARM_UP = 20;

  private final Mean pool = new Mean();
  private final ConcurrentHashMap<String, Mean> byEndpoint = new ConcurrentHashMap<>();

  /** Records a request with {@code uncachedTokens} to prefill, sent to {@code address}. */
  public void add(String address, double uncachedTokens) {
    if (!(uncachedTokens >= 0) || Double.isInfinite(uncachedTokens)) {
      return;
    }
    pool.add(uncachedTokens);
    byEndpoint.computeIfAbsent(address, a -> new Mean()).add(uncachedTokens);
  }

  /** The pool-wide mean, or NaN while fewer than {@link #WARM_UP} requests were seen. */
  public double mean() {
    return pool.value();
  }

  /** {@code address}'s own mean once known, else the pool-wide one (NaN while that is unknown). */
  public double mean(String address) {
    Mean own = byEndpoint.get(address);
    double v = own == null ? Double.NaN : own.value();
    return Double.isNaN(v) ? pool.value() : v;
  }

  /** Forgets endpoints that left every pool. */
  public void retain(Collection<String> addresses) {
    Set<String> keep = new HashSet<>(addresses);
    byEndpoint.keySet().removeIf(a -> !keep.contains(a));
  }

  private static final class Mean {
    private final AtomicLong meanBits = new AtomicLong(Double.doubleToLongBits(Double.NaN));
    private final AtomicLong seen = new AtomicLong();

    void add(double x) {
      seen.incrementAndGet();
      meanBits.updateAndGet(
          bits -> {
            double m = Double.longBitsToDouble(bits);
            return Double.doubleToLongBits(Double.isNaN(m) ? x : m + WEIGHT * (x - m));
          });
    }

    double value() {
      return seen.get() < WARM_UP ? Double.NaN : Double.longBitsToDouble(meanBits.get());
    }
  }
}
