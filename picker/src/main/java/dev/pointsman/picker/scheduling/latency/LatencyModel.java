package dev.pointsman.picker.scheduling.latency;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A learned model of each endpoint's time to first token, trained online from the TTFT the picker
 * observes on response streams; no sidecar, no offline profile.
 *
 * <p>Per endpoint it fits {@code ttft ≈ a + b · analytic}, where {@code analytic} is the
 * scheduler's physics-based estimate for that endpoint's GPU profile (queued prefill work, the
 * uncached part of the prompt, the running batch, KV-cache room). The offset {@code a} learns the
 * fixed overhead before a request reaches the engine; the factor {@code b} learns how much faster
 * or slower this endpoint really is than its label says, and follows it when it changes (a noisy
 * neighbour, thermal throttling, a misconfigured pod). Both are bounded running means ({@link
 * OffsetRatioFit}), not a least-squares line: a line fitted in a quiet phase, where every estimate
 * is small, extrapolates wildly into the next burst. Before any observation the model is the
 * analytic estimate itself ({@code a = 0, b = 1}).
 *
 * <p>Its memory is counted in observations, so a picker replica that learns from its own share of
 * the responses ({@link #splitAmong}) forgets that many times as fast per observation: it then
 * follows a change in about the same time as one picker that sees every response.
 *
 * <p>O(1) time and a handful of numbers per endpoint, whatever the traffic. Thread-safe: each
 * endpoint's fit is guarded by its own lock.
 */
public final class LatencyModel {
  /**
   * The least an observation is remembered, however many replicas split the responses: about the
   * last ten observations of an endpoint, below which one slow request moves the fit too far.
   */
  static final double MIN_FORGETTING = 0.9;

  private final double forgetting;

  /** The forgetting factor each observation applies: {@code forgetting^replicas}, bounded. */
  private volatile double perObservation;

  private volatile int replicas = 1;
  private final double unit;
  private final Kind kind;
  private final ConcurrentHashMap<String, Fit> fits = new ConcurrentHashMap<>();

  /**
   * @param forgetting forgetting factor in (0.9, 1]; 0.99 remembers about the last 100 observations
   */
  public LatencyModel(double forgetting) {
    this(forgetting, 1.0, Kind.OFFSET_RATIO);
  }

  /** The form of an endpoint's fit. */
  enum Kind {
    /** {@code a + b·x} as bounded running means ({@link OffsetRatioFit}). */
    OFFSET_RATIO,
    /** {@code b·x} as a bounded running mean of the log-ratio ({@link RatioFit}). */
    RATIO
  }

  /** The largest fixed overhead an offset fit learns: 100 ms (in seconds). */
  static final double MAX_OFFSET_SECONDS = 0.1;

  /** Estimates below 20 ms teach the offset: such a request's time is mostly overhead. */
  static final double SMALL_ESTIMATE_SECONDS = 0.02;

  /** Estimates of 50 ms or more teach the factor: the estimated work dominates the overhead. */
  static final double LARGE_ESTIMATE_SECONDS = 0.05;

  /**
   * @param forgetting forgetting factor in (0.9, 1]
   * @param unitSeconds the scale of the modelled times (1 s for TTFT, 0.01 s for time per output
   *     token): the fit works in this unit, so that its priors mean the same at either scale
   * @param kind the form of each endpoint's fit
   */
  private LatencyModel(double forgetting, double unitSeconds, Kind kind) {
    if (!(forgetting > 0.9 && forgetting <= 1.0)) {
      throw new IllegalArgumentException("forgetting: " + forgetting + " (expected in (0.9, 1])");
    }
    if (!(unitSeconds > 0) || Double.isInfinite(unitSeconds)) {
      throw new IllegalArgumentException("unitSeconds: " + unitSeconds + " (expected > 0)");
    }
    this.forgetting = forgetting;
    this.perObservation = forgetting;
    this.unit = unitSeconds;
    this.kind = kind;
  }

  /**
   * A model of time per output token: {@code tpot ≈ b · analytic} per endpoint, {@code log b} a
   * running mean that forgets at 0.99 (see {@link RatioFit}), in units of 10 ms.
   */
  public static LatencyModel forTpot() {
    return new LatencyModel(0.99, 0.01, Kind.RATIO);
  }

  public LatencyModel() {
    this(0.99);
  }

  private Fit newFit() {
    return switch (kind) {
      case OFFSET_RATIO ->
          new OffsetRatioFit(
              MAX_OFFSET_SECONDS / unit,
              SMALL_ESTIMATE_SECONDS / unit,
              LARGE_ESTIMATE_SECONDS / unit);
      case RATIO -> new RatioFit();
    };
  }

  /** Predicted TTFT in seconds on {@code endpoint}, given the analytic estimate for it. */
  public double predict(String endpoint, double analyticSeconds) {
    Fit f = fits.get(endpoint);
    return f == null ? analyticSeconds : f.predict(analyticSeconds / unit) * unit;
  }

  /**
   * Learns from one response: the analytic estimate made when the request was routed, and the TTFT
   * then observed.
   */
  public void observe(String endpoint, double analyticSeconds, double observedSeconds) {
    if (!(analyticSeconds >= 0) || !(observedSeconds >= 0) || Double.isInfinite(observedSeconds)) {
      return;
    }
    fits.computeIfAbsent(endpoint, e -> newFit())
        .update(analyticSeconds / unit, observedSeconds / unit, perObservation);
  }

  /**
   * Sets how many picker replicas split the pool's responses between them, this model learning from
   * one share: each observation then forgets as {@code replicas} observations would (at most down
   * to {@link #MIN_FORGETTING}), so that the fit follows a slower or faster endpoint about as soon,
   * in time, as one picker's model that sees every response. 1: alone, or learning from every
   * replica's responses.
   */
  public void splitAmong(int replicas) {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas: " + replicas + " (expected >= 1)");
    }
    this.replicas = replicas;
    this.perObservation = Math.max(MIN_FORGETTING, Math.pow(forgetting, replicas));
  }

  /** How many replicas split the responses this model learns from ({@link #splitAmong}). */
  public int splitAmong() {
    return replicas;
  }

  /**
   * Counts a prediction made outside this model's fit (its estimate plus a part priced elsewhere,
   * such as an adapter load) toward the endpoint's error, without training the fit.
   */
  public void recordError(String endpoint, double predictedSeconds, double observedSeconds) {
    if (!(predictedSeconds >= 0) || !(observedSeconds >= 0) || Double.isInfinite(observedSeconds)) {
      return;
    }
    fits.computeIfAbsent(endpoint, e -> newFit()).recordError(predictedSeconds, observedSeconds);
  }

  /** Mean absolute percentage error of recent predictions on {@code endpoint}, or NaN. */
  public double mape(String endpoint) {
    Fit f = fits.get(endpoint);
    return f == null ? Double.NaN : f.mape();
  }

  /** Mean of the endpoints' recent MAPE, or NaN before any observation. */
  public double mape() {
    return fits.values().stream()
        .mapToDouble(Fit::mape)
        .filter(v -> !Double.isNaN(v))
        .average()
        .orElse(Double.NaN);
  }

  /**
   * The learned {@code (a, b)} of an endpoint, {@code a} in seconds, for inspection; {@code (0, 1)}
   * when untrained.
   */
  public double[] coefficients(String endpoint) {
    Fit f = fits.get(endpoint);
    if (f == null) {
      return new double[] {0, 1};
    }
    double[] ab = f.coefficients();
    return new double[] {ab[0] * unit, ab[1]};
  }

  /**
   * How much slower than its analytic estimate {@code endpoint} has been observed to be: the
   * learned factor {@code b}, 1 when untrained.
   */
  public double factor(String endpoint) {
    Fit f = fits.get(endpoint);
    return f == null ? 1.0 : f.coefficients()[1];
  }

  /** Observations seen for {@code endpoint}. */
  public long observations(String endpoint) {
    Fit f = fits.get(endpoint);
    return f == null ? 0 : f.count();
  }

  /** Every endpoint's fit, for a late replica's snapshot. */
  public Map<String, double[]> export() {
    Map<String, double[]> out = new HashMap<>();
    fits.forEach((e, f) -> out.put(e, f.state()));
    return out;
  }

  /**
   * Merges fits from another replica ({@link #export} of a model of the same kind): of two fits of
   * one endpoint, the one trained on more observations is kept, so two replicas that exchange their
   * fits end with the same ones. Returns how many were of the wrong shape and skipped.
   */
  public int restore(Map<String, double[]> state) {
    int skipped = 0;
    for (Map.Entry<String, double[]> e : state.entrySet()) {
      Fit f = newFit();
      if (!f.restore(e.getValue())) {
        skipped++;
        continue;
      }
      fits.merge(e.getKey(), f, (mine, theirs) -> theirs.count() > mine.count() ? theirs : mine);
    }
    return skipped;
  }

  /** Forgets endpoints that left every pool. */
  public void retain(Collection<String> endpoints) {
    Set<String> keep = new HashSet<>(endpoints);
    fits.keySet().removeIf(e -> !keep.contains(e));
  }
}
