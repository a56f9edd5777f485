package dev.pointsman.picker.scheduling;

import dev.pointsman.picker.scheduling.latency.LatencyModel;

/**
 * Facts computed once per decision and shared by the filters and scorers of that decision. Not
 * thread-safe: one instance belongs to one decision.
 */
public final class CycleState {
  /** Prompt tokens in one 64-character prefix block, at about four characters a token. */
  public static final int TOKENS_PER_BLOCK = 16;

  private final long nowNanos;
  private final long[] promptBlocks;
  private final LatencyModel latencyModel;
  private final AdapterHistory adapters;
  private final double meanQueuedTokens;
  private int[] prefixMatches;
  private double[] analyticTtft;
  private java.util.Map<String, Double> loraAffinity;

  public CycleState(long nowNanos, long[] promptBlocks) {
    this(nowNanos, promptBlocks, null);
  }

  /**
   * @param latencyModel the learned latency model, or null to predict from GPU profiles alone
   */
  public CycleState(long nowNanos, long[] promptBlocks, LatencyModel latencyModel) {
    this(nowNanos, promptBlocks, latencyModel, null, Double.NaN);
  }

  /**
   * @param adapters the LoRA adapters recently sent to each endpoint, or null
   * @param meanQueuedTokens the uncached prompt tokens a queued request is observed to carry on
   *     average, or NaN when not yet known
   */
  public CycleState(
      long nowNanos,
      long[] promptBlocks,
      LatencyModel latencyModel,
      AdapterHistory adapters,
      double meanQueuedTokens) {
    this.nowNanos = nowNanos;
    this.promptBlocks = promptBlocks;
    this.latencyModel = latencyModel;
    this.adapters = adapters;
    this.meanQueuedTokens = meanQueuedTokens;
  }

  /** The {@code n} adapters most recently sent to {@code address} (probably still loaded). */
  public java.util.Set<String> recentAdapters(String address, int n) {
    return adapters == null ? java.util.Set.of() : adapters.mostRecent(address, n);
  }

  /**
   * The request's LoRA affinity on {@code address}, computed once per decision: the filter, the
   * affinity scorer and the latency scorer all ask for it.
   */
  public double loraAffinity(String address, java.util.function.DoubleSupplier compute) {
    if (loraAffinity == null) {
      loraAffinity = new java.util.HashMap<>();
    }
    Double known = loraAffinity.get(address);
    if (known != null) {
      return known;
    }
    double value = compute.getAsDouble();
    loraAffinity.put(address, value);
    return value;
  }

  /** Observed mean uncached prompt tokens per queued request, or NaN while unknown. */
  public double meanQueuedTokens() {
    return meanQueuedTokens;
  }

  /** The learned latency model, or null. */
  public LatencyModel latencyModel() {
    return latencyModel;
  }

  /** Records each candidate's analytic TTFT estimate, so the pick can be learned from later. */
  public void analyticTtft(double[] seconds) {
    this.analyticTtft = seconds;
  }

  /** Candidate {@code i}'s analytic TTFT estimate in seconds, or NaN when none was made. */
  public double analyticTtft(int i) {
    return analyticTtft == null ? Double.NaN : analyticTtft[i];
  }

  /**
   * Prompt tokens candidate {@code i} probably has cached: its matched blocks, never more than the
   * prompt.
   */
  public double cachedTokens(int i, int promptTokens) {
    if (prefixMatches == null) {
      return 0;
    }
    return Math.min(promptTokens, (double) prefixMatches[i] * TOKENS_PER_BLOCK);
  }

  /** The decision time on the picker's monotonic clock. */
  public long nowNanos() {
    return nowNanos;
  }

  /** Chained hashes of the prompt's prefix blocks (may be empty). Do not modify. */
  public long[] promptBlocks() {
    return promptBlocks;
  }

  /** Matched prefix blocks per candidate, as set by the scheduler, or null if not computed. */
  public int[] prefixMatches() {
    return prefixMatches;
  }

  void prefixMatches(int[] matches) {
    this.prefixMatches = matches;
  }

  /** Fraction of this prompt's blocks that candidate {@code i} probably holds, 0–1. */
  public double prefixHitFraction(int i) {
    if (prefixMatches == null || promptBlocks.length == 0) {
      return 0.0;
    }
    return (double) prefixMatches[i] / promptBlocks.length;
  }
}
