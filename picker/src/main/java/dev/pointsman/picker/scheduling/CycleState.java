package dev.pointsman.picker.scheduling;

import dev.pointsman.picker.scheduling.latency.AdapterLoadModel;
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
  private final QueuedWork queuedWork;
  private final InFlightTracker inFlight;
  private final AdapterLoadModel adapterLoads;
  private final LatencyModel tpotModel;
  private int[] prefixMatches;
  private int[] textMatches;
  private dev.pointsman.picker.scheduling.prefix.PrefixIndex prefixIndex;
  private int[] offloadedMatches;
  private double offloadedCredit;
  private int prefixTotal = -1;
  private int prefixBlockTokens = TOKENS_PER_BLOCK;
  private boolean promptContinues;
  private double meanAnswerTokens = Double.NaN;
  private double[] analyticTtft;
  private double[] adapterSeconds;
  private double[] predictedTtft;
  private java.util.Map<String, LoraState> loraStates;

  public CycleState(long nowNanos, long[] promptBlocks) {
    this(nowNanos, promptBlocks, null);
  }

  /**
   * @param latencyModel the learned latency model, or null to predict from GPU profiles alone
   */
  public CycleState(long nowNanos, long[] promptBlocks, LatencyModel latencyModel) {
    this(nowNanos, promptBlocks, latencyModel, null, null, null, null, null);
  }

  /**
   * @param adapters the LoRA adapters recently sent to each endpoint, or null
   * @param queuedWork the observed uncached prompt tokens of the requests sent to each endpoint, or
   *     null when not known
   * @param inFlight the picker's own accounting (live adapters, loads in progress), or null
   * @param adapterLoads learned adapter-load prices, or null to use the configured priors
   * @param tpotModel the learned time-per-output-token model, or null for the analytic estimate
   */
  public CycleState(
      long nowNanos,
      long[] promptBlocks,
      LatencyModel latencyModel,
      AdapterHistory adapters,
      QueuedWork queuedWork,
      InFlightTracker inFlight,
      AdapterLoadModel adapterLoads,
      LatencyModel tpotModel) {
    this.nowNanos = nowNanos;
    this.promptBlocks = promptBlocks;
    this.latencyModel = latencyModel;
    this.adapters = adapters;
    this.queuedWork = queuedWork;
    this.inFlight = inFlight;
    this.adapterLoads = adapterLoads;
    this.tpotModel = tpotModel;
  }

  /**
   * Predicted seconds per output token for {@code request} on {@code c}: the analytic estimate,
   * corrected by the learned model when there is one.
   */
  public double predictTpotSeconds(Candidate c, SchedulingRequest request) {
    double analytic = Scheduler.analyticTpot(c, request, meanQueuedTokens(c.address()));
    return tpotModel == null ? analytic : tpotModel.predict(c.address(), analytic);
  }

  /** Adapters with live requests the picker sent to {@code address}. */
  public java.util.Set<String> liveAdapters(String address) {
    return inFlight == null ? java.util.Set.of() : inFlight.liveAdapters(address);
  }

  /** Whether the picker triggered a load of {@code adapter} on {@code address} not yet finished. */
  public boolean loading(String address, String adapter) {
    return inFlight != null && inFlight.loading(address, adapter);
  }

  /** Adapter loads the picker triggered on {@code address} and has not seen finish. */
  public int loadsInProgress(String address) {
    return inFlight == null ? 0 : inFlight.loadsInProgress(address);
  }

  /** Learned adapter-load prices, or null. */
  public AdapterLoadModel adapterLoads() {
    return adapterLoads;
  }

  /** The {@code n} adapters most recently sent to {@code address} (probably still loaded). */
  public java.util.Set<String> recentAdapters(String address, int n) {
    return adapters == null ? java.util.Set.of() : adapters.mostRecent(address, n);
  }

  /**
   * Where the request's adapter stands on {@code address}, computed once per decision: the filter,
   * the affinity scorer, the latency scorer and the scheduler all ask for it.
   */
  public LoraState loraState(String address, java.util.function.Supplier<LoraState> compute) {
    if (loraStates == null) {
      loraStates = new java.util.HashMap<>();
    }
    LoraState known = loraStates.get(address);
    if (known != null) {
      return known;
    }
    LoraState value = compute.get();
    loraStates.put(address, value);
    return value;
  }

  /**
   * Observed mean uncached prompt tokens per request queued on {@code address}: its own mean once
   * known, else the pool-wide one; NaN while unknown.
   */
  public double meanQueuedTokens(String address) {
    return queuedWork == null ? Double.NaN : queuedWork.mean(address);
  }

  /** Sets the mean answer length the picker has seen, in output tokens (NaN: not known yet). */
  public void meanAnswerTokens(double tokens) {
    meanAnswerTokens = tokens;
  }

  /** The mean answer length the picker has seen, in output tokens; NaN while not known. */
  public double meanAnswerTokens() {
    return meanAnswerTokens;
  }

  /** The learned latency model, or null. */
  public LatencyModel latencyModel() {
    return latencyModel;
  }

  /** Records each candidate's analytic TTFT estimate, so the pick can be learned from later. */
  public void analyticTtft(double[] seconds) {
    this.analyticTtft = seconds;
  }

  /** Records each candidate's learned TTFT prediction (adapter loads included), in seconds. */
  public void predictedTtft(double[] seconds) {
    this.predictedTtft = seconds;
  }

  /** Each candidate's learned TTFT prediction in seconds, or null when none was made. */
  public double[] predictedTtft() {
    return predictedTtft;
  }

  /** Records the seconds each candidate's adapter load is predicted to add. */
  public void adapterSeconds(double[] seconds) {
    this.adapterSeconds = seconds;
  }

  /** Seconds candidate {@code i}'s adapter load is predicted to add, or 0. */
  public double adapterSeconds(int i) {
    return adapterSeconds == null ? 0.0 : adapterSeconds[i];
  }

  /** Candidate {@code i}'s analytic TTFT estimate in seconds, or NaN when none was made. */
  public double analyticTtft(int i) {
    return analyticTtft == null ? Double.NaN : analyticTtft[i];
  }

  /**
   * Prompt tokens candidate {@code i} probably has cached: its matched blocks, never more than the
   * prompt. When the prompt goes on past the blocks hashed ({@link #promptContinues}) and the
   * candidate holds all of them, the rest counts as cached too: a server caches a prompt whole, so
   * the one that holds its first 131k tokens was most likely sent the rest with them. A match that
   * ends before the last hashed block ends the cached prefix there.
   */
  public double cachedTokens(int i, int promptTokens) {
    if (prefixMatches == null) {
      return 0;
    }
    int total = prefixTotal >= 0 ? prefixTotal : promptBlocks.length;
    int offloaded = offloadedMatches == null ? 0 : offloadedMatches[i];
    double gpu = Math.min(promptTokens, (double) prefixMatches[i] * prefixBlockTokens);
    if (promptContinues && total > 0 && prefixMatches[i] + offloaded >= total) {
      return offloaded == 0 ? promptTokens : gpu + offloadedCredit * (promptTokens - gpu);
    }
    double cpu = Math.min(promptTokens - gpu, (double) offloaded * prefixBlockTokens);
    return gpu + offloadedCredit * cpu;
  }

  /** Whether the prompt goes on past the blocks hashed (it reached the hasher's bound). */
  public boolean promptContinues() {
    return promptContinues;
  }

  void promptContinues(boolean continues) {
    this.promptContinues = continues;
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
    this.textMatches = matches;
  }

  /**
   * Whether what candidate {@code i} holds of this prompt by the picker's own index is this
   * conversation's alone: the match ends where a prompt the picker sent there ended ({@link
   * dev.pointsman.picker.scheduling.prefix.PrefixIndex#endsPrompt}), so this prompt continues that
   * one, and no other request the picker has in flight there shares those blocks ({@link
   * InFlightTracker#sharedInFlight}). False where it holds none of them by that index, or where
   * that cannot be told ({@link #knowsSharing}).
   */
  public boolean holdsPrivately(int i, String address) {
    if (!knowsSharing()) {
      return false;
    }
    int depth = textMatches[i];
    return depth > 0
        && prefixIndex.endsPrompt(address, promptBlocks, depth)
        && !inFlight.sharedInFlight(address, promptBlocks, depth);
  }

  /** Whether {@link #holdsPrivately} can tell: the picker's index and accounting exist. */
  public boolean knowsSharing() {
    return inFlight != null && textMatches != null && prefixIndex != null;
  }

  /** The picker's approximate prefix index, which {@link #holdsPrivately} reads. */
  void prefixIndex(dev.pointsman.picker.scheduling.prefix.PrefixIndex index) {
    this.prefixIndex = index;
  }

  /** Leading prompt blocks candidate {@code i} holds by the picker's own index (0 without one). */
  public int textMatches(int i) {
    return textMatches == null ? 0 : textMatches[i];
  }

  /**
   * Matches from the engines' own events, in their blocks, in place of the approximate ones: {@code
   * matches} in GPU memory, then {@code offloaded} more in CPU memory, each of those worth {@code
   * credit} of a GPU hit (in {@link #cachedTokens} and {@link #prefixHitFraction}).
   */
  void precisePrefixMatches(
      int[] matches, int[] offloaded, double credit, int promptBlocks, int blockTokens) {
    this.prefixMatches = matches;
    this.offloadedMatches = offloaded;
    this.offloadedCredit = credit;
    this.prefixTotal = promptBlocks;
    this.prefixBlockTokens = blockTokens;
  }

  /** Fraction of this prompt's blocks that candidate {@code i} probably holds, 0–1. */
  public double prefixHitFraction(int i) {
    int total = prefixTotal >= 0 ? prefixTotal : promptBlocks.length;
    if (prefixMatches == null || total == 0) {
      return 0.0;
    }
    int offloaded = offloadedMatches == null ? 0 : offloadedMatches[i];
    return Math.min(1.0, (prefixMatches[i] + offloadedCredit * offloaded) / total);
  }
}
