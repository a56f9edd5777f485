package dev.pointsman.picker.scheduling;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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

  private final Ewma pool = new Ewma(WEIGHT, WARM_UP);
  private final ConcurrentHashMap<String, Ewma> byEndpoint = new ConcurrentHashMap<>();

  /** Records a request with {@code uncachedTokens} to prefill, sent to {@code address}. */
  public void add(String address, double uncachedTokens) {
    if (!(uncachedTokens >= 0) || Double.isInfinite(uncachedTokens)) {
      return;
    }
    pool.add(uncachedTokens);
    byEndpoint.computeIfAbsent(address, a -> new Ewma(WEIGHT, WARM_UP)).add(uncachedTokens);
  }

  /** The pool-wide mean, or NaN while fewer than {@link #WARM_UP} requests were seen. */
  public double mean() {
    return pool.value();
  }

  /** {@code address}'s own mean once known, else the pool-wide one (NaN while that is unknown). */
  public double mean(String address) {
    Ewma own = byEndpoint.get(address);
    double v = own == null ? Double.NaN : own.value();
    return Double.isNaN(v) ? pool.value() : v;
  }

  /**
   * The state, for a late replica's snapshot: per endpoint (and {@link #POOL} for the pool-wide
   * mean) its {@code {mean, requests seen}}.
   */
  public Map<String, double[]> export() {
    Map<String, double[]> out = new HashMap<>();
    out.put(POOL, pool.state());
    byEndpoint.forEach((a, m) -> out.put(a, m.state()));
    return out;
  }

  /**
   * Merges means from another replica ({@link #export}): each mean that has seen more requests than
   * this one's replaces it.
   */
  public void restore(Map<String, double[]> state) {
    state.forEach(
        (a, s) -> {
          if (s.length == 2) {
            (a.equals(POOL) ? pool : byEndpoint.computeIfAbsent(a, k -> new Ewma(WEIGHT, WARM_UP)))
                .restore(s);
          }
        });
  }

  /** The key of the pool-wide mean in {@link #export}: no endpoint address is empty. */
  public static final String POOL = "";

  /** Forgets endpoints that left every pool. */
  public void retain(Collection<String> addresses) {
    Set<String> keep = new HashSet<>(addresses);
    byEndpoint.keySet().removeIf(a -> !keep.contains(a));
  }
}
