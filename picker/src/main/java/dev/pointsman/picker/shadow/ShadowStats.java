package dev.pointsman.picker.shadow;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.DoubleConsumer;

/**
 * What shadow mode has seen: decisions, how many of them the proxy reported a served endpoint for,
 * how many of those the picker would have sent elsewhere, and the absolute relative error of its
 * TTFT prediction for the endpoint that served (kept whole as a count and a sum, and for the last
 * {@value #WINDOW} observations, for percentiles). Thread-safe: counters are atomic, the window and
 * the recent list are guarded by this object's lock.
 */
public final class ShadowStats {
  /** Errors kept for the percentiles. */
  static final int WINDOW = 4096;

  /** Requests kept in the report's {@code recent} list. */
  static final int RECENT = 32;

  private final AtomicLong decisions = new AtomicLong();
  private final AtomicLong served = new AtomicLong();
  private final AtomicLong differ = new AtomicLong();
  private final AtomicLong predicted = new AtomicLong();
  private final DoubleAdder errorSum = new DoubleAdder();
  private final double[] window = new double[WINDOW];
  private final ArrayDeque<Map<String, Object>> recent = new ArrayDeque<>();
  private long windowed;
  private volatile DoubleConsumer errorListener = e -> {};

  void decided() {
    decisions.incrementAndGet();
  }

  /**
   * The proxy reported {@code servedBy} for a request the picker would have sent to {@code pick}.
   */
  void served(String pick, String servedBy) {
    served.incrementAndGet();
    if (!pick.equals(servedBy)) {
      differ.incrementAndGet();
    }
  }

  /** One absolute relative TTFT prediction error on a served endpoint. */
  void predictionError(double error) {
    predicted.incrementAndGet();
    errorSum.add(error);
    synchronized (this) {
      window[(int) (windowed++ % WINDOW)] = error;
    }
    errorListener.accept(error);
  }

  /** One ended request, for the report's recent list. */
  synchronized void ended(Map<String, Object> request) {
    if (recent.size() == RECENT) {
      recent.removeFirst();
    }
    recent.addLast(request);
  }

  /** Told every prediction error as it is observed (a meter). */
  public void onPredictionError(DoubleConsumer listener) {
    this.errorListener = listener;
  }

  public long decisions() {
    return decisions.get();
  }

  /** Decisions whose served endpoint the proxy reported. */
  public long served() {
    return served.get();
  }

  /** Served requests the picker would have sent elsewhere. */
  public long wouldDiffer() {
    return differ.get();
  }

  /** Served requests whose endpoint the picker had a TTFT prediction for, and that produced one. */
  public long predicted() {
    return predicted.get();
  }

  /** The {@code /debug/shadow} report. */
  public Map<String, Object> report() {
    long s = served.get();
    long p = predicted.get();
    double[] sorted;
    List<Map<String, Object>> last;
    synchronized (this) {
      int n = (int) Math.min(windowed, WINDOW);
      sorted = Arrays.copyOf(window, n);
      last = List.copyOf(recent);
    }
    Arrays.sort(sorted);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("enabled", true);
    out.put("decisions", decisions.get());
    out.put("served", s);
    out.put("wouldDiffer", differ.get());
    out.put("wouldDifferRate", s == 0 ? null : (double) differ.get() / s);
    out.put("agreementRate", s == 0 ? null : (double) (s - differ.get()) / s);
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("observations", p);
    error.put("mean", p == 0 ? null : errorSum.sum() / p);
    error.put("p50", quantile(sorted, 0.5));
    error.put("p90", quantile(sorted, 0.9));
    error.put("window", sorted.length);
    out.put("ttftAbsRelativeError", error);
    out.put("recent", last);
    return out;
  }

  private static Double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return null;
    }
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }
}
