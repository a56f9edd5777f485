package dev.pointsman.picker.scheduling;

import dev.pointsman.picker.scheduling.latency.AdapterLoadModel;
import dev.pointsman.picker.scheduling.latency.LatencyModel;
import dev.pointsman.picker.scheduling.plugins.LoraAffinityScorer;
import dev.pointsman.picker.scheduling.plugins.PredictedLatencyScorer;
import dev.pointsman.picker.scheduling.prefix.PrecisePrefix;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import dev.pointsman.picker.scheduling.prior.SpeedPriors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * The scheduling library's entry point: {@code (request, pool snapshots, policy) → decision}.
 *
 * <p>Pure in the sense that matters: no I/O, no threads, no wall clock. Time comes from the
 * injected monotonic clock, randomness from the caller. The only state it touches is named and
 * shared on purpose: the {@link PrefixIndex} (updated with the chosen endpoint's prompt blocks) and
 * the {@link InFlightTracker} (the pick is counted at once). Safe to call from many threads.
 */
public final class Scheduler {
  private final PrefixIndex prefixIndex;
  private volatile Function<String, PrecisePrefix> precisePrefix = pool -> null;
  private final InFlightTracker inFlight;
  private final PrefixHasher hasher;
  private final LongSupplier nanoClock;
  private final LatencyModel latencyModel;
  private final SpeedPriors priors;
  private final AdapterHistory adapters = new AdapterHistory();
  private final AdapterLoadModel adapterLoads = new AdapterLoadModel();
  private final LatencyModel tpotModel = LatencyModel.forTpot();
  private final QueuedWork queuedWork = new QueuedWork();

  /** Output tokens of the answers seen, about the last 50: how long a running request stays. */
  private final Ewma answers = new Ewma(0.02, 20);

  private volatile Learning learning = Learning.NONE;

  public Scheduler(
      PrefixIndex prefixIndex,
      InFlightTracker inFlight,
      PrefixHasher hasher,
      LongSupplier nanoClock) {
    this(prefixIndex, inFlight, hasher, nanoClock, new LatencyModel());
  }

  public Scheduler(
      PrefixIndex prefixIndex,
      InFlightTracker inFlight,
      PrefixHasher hasher,
      LongSupplier nanoClock,
      LatencyModel latencyModel) {
    this(prefixIndex, inFlight, hasher, nanoClock, latencyModel, SpeedPriors.builtIn());
  }

  /**
   * @param priors each endpoint's speed before any of its first tokens is observed
   */
  public Scheduler(
      PrefixIndex prefixIndex,
      InFlightTracker inFlight,
      PrefixHasher hasher,
      LongSupplier nanoClock,
      LatencyModel latencyModel,
      SpeedPriors priors) {
    this.priors = Objects.requireNonNull(priors, "priors");
    this.prefixIndex = Objects.requireNonNull(prefixIndex, "prefixIndex");
    this.inFlight = Objects.requireNonNull(inFlight, "inFlight");
    this.hasher = Objects.requireNonNull(hasher, "hasher");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.latencyModel = Objects.requireNonNull(latencyModel, "latencyModel");
  }

  /**
   * Tells {@code learning} what this scheduler learns from here on (its picks and observed
   * latencies), for other replicas to learn it too.
   */
  public void shareWith(Learning learning) {
    this.learning = Objects.requireNonNull(learning, "learning");
  }

  public LatencyModel latencyModel() {
    return latencyModel;
  }

  /**
   * Tells the learned TTFT and TPOT models that {@code replicas} pickers split the responses, this
   * one learning from its own share ({@link LatencyModel#splitAmong}); 1 when alone or when every
   * replica's observations are learned here too.
   */
  public void learnFromShareOf(int replicas) {
    latencyModel.splitAmong(replicas);
    tpotModel.splitAmong(replicas);
  }

  public AdapterHistory adapterHistory() {
    return adapters;
  }

  /** The observed uncached prompt tokens of the requests sent to each endpoint. */
  public QueuedWork queuedWork() {
    return queuedWork;
  }

  /** The learned model of each endpoint's time per output token. */
  public LatencyModel tpotModel() {
    return tpotModel;
  }

  /**
   * Teaches the TPOT model what a picked request's time per output token turned out to be: the time
   * from its first to its last token over the tokens after the first.
   */
  public void observeTpot(Decision.Picked picked, double tpotSeconds) {
    double analytic = picked.prediction().analyticTpotSeconds();
    learnTpot(picked.address(), analytic, tpotSeconds);
    learning.tpot(picked.address(), analytic, tpotSeconds);
  }

  /**
   * Learns the length of a completed answer, in output tokens (its usage): with the prompts, what a
   * running request holds in KV cache and for how long. Each replica learns it from its own share
   * of the answers (a random half is as good a sample as the whole); a replica that joins late
   * takes it from the snapshot ({@link #answerLengthState}). Until 20 were seen a typical chat
   * answer is assumed.
   */
  public void observeAnswer(int outputTokens) {
    if (outputTokens > 0) {
      answers.add(outputTokens);
    }
  }

  /** The mean answer length in output tokens, or NaN until 20 answers were seen. */
  public double meanAnswerTokens() {
    return answers.value();
  }

  /** The answer-length mean's state, {@code {mean, answers seen}}, for a late replica. */
  public double[] answerLengthState() {
    return answers.state();
  }

  /**
   * Takes another replica's {@link #answerLengthState} when it has seen more answers than this one
   * (a state of any other length is ignored).
   */
  public void restoreAnswerLengths(double[] state) {
    if (state.length == 2) {
      answers.restore(state);
    }
  }

  /** Learns another replica's observed time per output token (as {@link #observeTpot}). */
  public void learnTpot(String address, double analyticTpotSeconds, double tpotSeconds) {
    tpotModel.observe(address, analyticTpotSeconds, tpotSeconds);
  }

  /** Adapter-load prices learned from observed first tokens. */
  public AdapterLoadModel adapterLoads() {
    return adapterLoads;
  }

  /**
   * Teaches the models what a picked request's time to first token turned out to be. Call once per
   * request whose response produced a first byte. A request that waited for no adapter load trains
   * the latency model; one that did trains the adapter-load prices with the part of its TTFT beyond
   * the base prediction. Both count toward the prediction error.
   */
  public void observeTtft(Decision.Picked picked, double ttftSeconds) {
    picked.ticket().firstToken();
    Decision.Prediction p = picked.prediction();
    if (Double.isNaN(p.analyticSeconds())) {
      return;
    }
    learnTtft(picked.address(), p, ttftSeconds);
    learning.ttft(picked.address(), p, ttftSeconds);
  }

  /**
   * Learns one observed time to first token on {@code address}, predicted as {@code p}: from this
   * replica's own response ({@link #observeTtft}) or another replica's.
   */
  public void learnTtft(String address, Decision.Prediction p, double ttftSeconds) {
    if (Double.isNaN(p.analyticSeconds())) {
      return;
    }
    if (p.lora().waitsForLoad()) {
      latencyModel.recordError(address, p.predictedSeconds(), ttftSeconds);
      adapterLoads.observe(address, p.lora(), p.loadsAhead(), ttftSeconds - p.baseSeconds());
    } else {
      latencyModel.observe(address, p.analyticSeconds(), ttftSeconds);
    }
  }

  /**
   * Learns another replica's pick: {@code address} now probably caches these prompt blocks and
   * holds {@code adapter}, and was sent {@code uncachedTokens} of prefill.
   */
  public void learnPick(String address, long[] blocks, String adapter, double uncachedTokens) {
    prefixIndex.record(address, blocks);
    adapters.record(address, adapter);
    queuedWork.add(address, uncachedTokens);
  }

  /**
   * As {@link #learnPick}, the prompt given by its prefix-index keys as {@code keptBy} keeps them
   * (another replica's index): taken only if this index keeps the same blocks; the adapter and the
   * queued work are learned either way.
   */
  public void learnPickKeys(
      String address,
      long[] keys,
      PrefixIndex.Checkpoints keptBy,
      String adapter,
      double uncachedTokens) {
    if (keptBy.equals(prefixIndex.checkpoints())) {
      prefixIndex.recordKeys(address, keys);
    }
    adapters.record(address, adapter);
    queuedWork.add(address, uncachedTokens);
  }

  public InFlightTracker inFlight() {
    return inFlight;
  }

  /**
   * Forgets what {@code address}'s engine held: the prompts the prefix index believes it cached and
   * the adapters it was sent. For an engine that restarted in place or woke from sleep, whose
   * caches are empty though it stayed in the pool; its latency fits (the hardware's) stay.
   */
  public void forgetCaches(String address) {
    prefixIndex.forget(address);
    adapters.forget(address);
  }

  /**
   * Forgets what was learned of endpoints outside {@code addresses} (the pools' ready endpoints):
   * what their prefix caches held, their latency and TPOT fits, their adapters and their queued
   * work. An endpoint that comes back (a restarted engine, its caches empty) starts afresh. The
   * in-flight work is the datastore's to forget ({@link InFlightTracker#retain}).
   */
  public void retain(Collection<String> addresses) {
    prefixIndex.retain(addresses);
    latencyModel.retain(addresses);
    adapters.retain(addresses);
    adapterLoads.retain(addresses);
    tpotModel.retain(addresses);
    queuedWork.retain(addresses);
  }

  /**
   * Matches prefixes of the pools {@code byPool} names (null for the others) with what their
   * engines report instead of the approximate index, for the requests it can match.
   */
  public void usePrecisePrefix(Function<String, PrecisePrefix> byPool) {
    this.precisePrefix = Objects.requireNonNull(byPool, "byPool");
  }

  public PrefixIndex prefixIndex() {
    return prefixIndex;
  }

  /** Schedules against one pool. */
  public Decision schedule(
      SchedulingRequest request,
      PoolSnapshot pool,
      SchedulingPolicy policy,
      RandomGenerator random) {
    return schedule(request, List.of(pool), policy, random);
  }

  /**
   * Schedules against several pools that all serve the request's model: choosing the pool is part
   * of choosing the endpoint.
   */
  public Decision schedule(
      SchedulingRequest request,
      List<PoolSnapshot> pools,
      SchedulingPolicy policy,
      RandomGenerator random) {
    List<Candidate> candidates = candidates(request, pools);
    if (candidates.isEmpty()) {
      Decision.NoEndpoints.Cause cause =
          request.subset() != null && anyAvailable(pools)
              ? Decision.NoEndpoints.Cause.SUBSET_EMPTY
              : Decision.NoEndpoints.Cause.NONE_READY;
      return new Decision.NoEndpoints(noEndpointReason(request, pools), cause);
    }
    long[] blocks = hasher.hash(request.model(), request.promptPrefix());
    CycleState state =
        new CycleState(
            nanoClock.getAsLong(),
            blocks,
            latencyModel,
            adapters,
            queuedWork,
            inFlight,
            adapterLoads,
            tpotModel);
    state.promptContinues(hasher.reachesBound(request.promptPrefix()));
    state.meanAnswerTokens(answers.value());
    for (Filter filter : policy.filters()) {
      candidates = filter.filter(request, candidates, state);
      if (candidates.isEmpty()) {
        return new Decision.NoEndpoints(
            "no endpoint passed the " + filter.type(), Decision.NoEndpoints.Cause.FILTERED);
      }
    }
    if (request.sheddable() && policy.saturation().saturated(candidates)) {
      return new Decision.Shed(
          "pool saturated: every endpoint is over its queue or KV-cache threshold",
          policy.saturation().retryAfterSeconds());
    }
    state.prefixMatches(matchPrefixes(blocks, candidates));
    state.prefixIndex(prefixIndex);
    PrecisePrefix precise = precisePrefix.apply(candidates.get(0).state().endpoint().pool());
    PrecisePrefix.Match exact = precise == null ? null : precise.match(request, candidates);
    if (exact != null) {
      state.precisePrefixMatches(
          exact.blocks(),
          exact.offloaded(),
          exact.offloadedCredit(),
          exact.promptBlocks(),
          exact.blockSize());
    }
    return pick(request, candidates, state, policy, random);
  }

  private Decision pick(
      SchedulingRequest request,
      List<Candidate> candidates,
      CycleState state,
      SchedulingPolicy policy,
      RandomGenerator random) {
    int n = candidates.size();
    List<WeightedScorer> scorers = policy.scorers();
    double[][] scores = new double[scorers.size()][n];
    double[] totals = new double[n];
    double[] weights = new double[scorers.size()];
    List<String> names = new ArrayList<>(scorers.size());
    for (int s = 0; s < scorers.size(); s++) {
      WeightedScorer ws = scorers.get(s);
      weights[s] = ws.weight();
      names.add(ws.scorer().type());
      ws.scorer().score(request, candidates, state, scores[s]);
      for (int c = 0; c < n; c++) {
        totals[c] += ws.weight() * clamp(scores[s][c]);
      }
    }
    int[] order = policy.picker().pick(totals, Math.min(n, 1 + policy.fallbacks()), random);
    Candidate primary = candidates.get(order[0]);
    List<Candidate> fallbacks = new ArrayList<>(order.length - 1);
    for (int i = 1; i < order.length; i++) {
      fallbacks.add(candidates.get(order[i]));
    }
    double uncached = request.promptTokens() - state.cachedTokens(order[0], request.promptTokens());
    Decision.Prediction prediction = predict(request, candidates, order[0], state);
    List<Decision.Prediction> fallbackPredictions = new ArrayList<>(order.length - 1);
    for (int i = 1; i < order.length; i++) {
      fallbackPredictions.add(predict(request, candidates, order[i], state));
    }
    LoraState lora = prediction.lora();
    InFlightTracker.Ticket ticket =
        inFlight.assign(
            primary.address(),
            request.promptTokens(),
            (long) uncached,
            request.adapter(),
            lora.triggersLoad(),
            state.promptBlocks());
    learnPick(primary.address(), state.promptBlocks(), request.adapter(), uncached);
    learning.picked(primary.address(), state.promptBlocks(), request.adapter(), uncached);
    List<String> addresses = new ArrayList<>(n);
    for (Candidate c : candidates) {
      addresses.add(c.address());
    }
    Explanation why =
        new Explanation(
            names,
            weights,
            addresses,
            scores,
            totals,
            order[0],
            state.predictedTtft(),
            state.promptBlocks());
    return new Decision.Picked(primary, fallbacks, ticket, why, prediction, fallbackPredictions);
  }

  /** What the scheduler predicts for candidate {@code i}, before any pick is counted. */
  private Decision.Prediction predict(
      SchedulingRequest request, List<Candidate> candidates, int i, CycleState state) {
    Candidate c = candidates.get(i);
    LoraState lora =
        request.adapter() == null
            ? LoraState.NONE
            : LoraAffinityScorer.state(c, request.adapter(), state);
    int loadsAhead = lora.waitsForLoad() ? inFlight.loadsInProgress(c.address()) : 0;
    double analytic = state.analyticTtft(i);
    double tpot = analyticTpot(c, request, state.meanQueuedTokens(c.address()));
    return new Decision.Prediction(
        analytic,
        Double.isNaN(analytic) ? Double.NaN : latencyModel.predict(c.address(), analytic),
        state.adapterSeconds(i),
        lora,
        loadsAhead,
        tpot,
        tpotModel.predict(c.address(), tpot));
  }

  /**
   * The proxy reports that {@code served}, one of the pick's fallbacks, served the request (a retry
   * landed there): the in-flight hold moves from the primary to it, and what is learned later is
   * learned about it. Returns the pick as charged to the fallback, or null when {@code served} is
   * not one of the fallbacks (the primary's hold is then released and nothing is learned).
   */
  public Decision.Picked servedBy(Decision.Picked picked, String served) {
    int i = picked.fallbackIndex(served);
    if (i < 0) {
      picked.ticket().release();
      return null;
    }
    Candidate fallback = picked.fallbacks().get(i);
    InFlightTracker.Ticket ticket = inFlight.transfer(picked.ticket(), fallback.address());
    Decision.Prediction prediction =
        picked.fallbackPredictions().isEmpty()
            ? Decision.Prediction.NONE
            : picked.fallbackPredictions().get(i);
    return new Decision.Picked(
        fallback, List.of(), ticket, picked.explanation(), prediction, List.of());
  }

  /** Output tokens assumed when a request does not cap them (about a chat answer's mean). */
  public static final int TYPICAL_OUTPUT_TOKENS = 200;

  /** The analytic time per output token {@code request} would see on {@code c}. */
  public static double analyticTpot(
      Candidate c, SchedulingRequest request, double meanQueuedTokens) {
    EndpointMetrics m = c.metrics();
    int batch = c.running() + c.load().pendingRequests() + 1;
    double context = c.contextTokens() + request.promptTokens();
    double perWaiting = Double.isNaN(meanQueuedTokens) ? 256 : meanQueuedTokens;
    double queued =
        Math.max(
            m.waitingRequests() * perWaiting + c.load().pendingTokens(), c.load().prefillTokens());
    return c.profile().tpotSeconds(batch, context, queued, expectedOutputTokens(request));
  }

  /** Output tokens expected of {@code request}: its cap, at most a typical chat answer's. */
  public static int expectedOutputTokens(SchedulingRequest request) {
    return request.maxOutputTokens() > 0
        ? Math.min(request.maxOutputTokens(), TYPICAL_OUTPUT_TOKENS)
        : TYPICAL_OUTPUT_TOKENS;
  }

  /**
   * The endpoints {@code request} could go to (available, allowed by its subset hint) with their
   * loads, before filters: what flow control measures saturation on. Counts nothing.
   */
  public List<Candidate> candidatesFor(SchedulingRequest request, List<PoolSnapshot> pools) {
    return candidates(request, pools);
  }

  /**
   * The lowest time to first token predicted for {@code request} on any of {@code candidates}: the
   * analytic estimate of the {@code predicted-latency-scorer} without prefix-cache credit,
   * corrected by the learned latency model. NaN without candidates. Counts nothing.
   */
  public double bestTtftSeconds(SchedulingRequest request, List<Candidate> candidates) {
    double best = Double.NaN;
    for (Candidate c : candidates) {
      double perWaiting = queuedWork.mean(c.address());
      double analytic =
          TTFT.predictTtftSeconds(
              c,
              request.promptTokens(),
              Double.isNaN(perWaiting) ? 256 : perWaiting,
              answers.value());
      double predicted = latencyModel.predict(c.address(), analytic);
      if (!Double.isNaN(predicted) && (Double.isNaN(best) || predicted < best)) {
        best = predicted;
      }
    }
    return best;
  }

  /**
   * The lowest time per output token predicted for {@code request} on any of {@code candidates}:
   * the analytic estimate (batch, context, queued prefill, speed prior) corrected by the learned
   * TPOT model. NaN without candidates. Counts nothing.
   */
  public double bestTpotSeconds(SchedulingRequest request, List<Candidate> candidates) {
    double best = Double.NaN;
    for (Candidate c : candidates) {
      double analytic = analyticTpot(c, request, queuedWork.mean(c.address()));
      double predicted = tpotModel.predict(c.address(), analytic);
      if (!Double.isNaN(predicted) && (Double.isNaN(best) || predicted < best)) {
        best = predicted;
      }
    }
    return best;
  }

  private static final PredictedLatencyScorer TTFT = new PredictedLatencyScorer();

  private List<Candidate> candidates(SchedulingRequest request, List<PoolSnapshot> pools) {
    List<Candidate> out = new ArrayList<>();
    for (PoolSnapshot pool : pools) {
      List<SpeedProfile> profiles = null;
      List<EndpointState> endpoints = pool.endpoints();
      for (int i = 0; i < endpoints.size(); i++) {
        EndpointState e = endpoints.get(i);
        if (!e.available() || !request.allows(e.address())) {
          continue;
        }
        if (profiles == null) {
          // an endpoint of unknown GPU takes the median of its whole pool, available or not
          profiles = priors.of(endpoints);
        }
        out.add(new Candidate(e, inFlight.load(e.address()), profiles.get(i)));
      }
    }
    return out;
  }

  private int[] matchPrefixes(long[] blocks, List<Candidate> candidates) {
    if (blocks.length == 0) {
      return new int[candidates.size()];
    }
    Map<String, Integer> index = new HashMap<>(candidates.size() * 2);
    for (int i = 0; i < candidates.size(); i++) {
      Candidate c = candidates.get(i);
      index.put(c.address(), i);
      long capacity = c.metrics().kvCapacityTokens();
      if (capacity > 0) {
        // remember no more of an endpoint's prompts than its KV cache can hold
        prefixIndex.limit(
            c.address(), (int) Math.min(Integer.MAX_VALUE, capacity / CycleState.TOKENS_PER_BLOCK));
      }
    }
    return prefixIndex.match(blocks, a -> index.getOrDefault(a, -1), candidates.size());
  }

  private static boolean anyAvailable(List<PoolSnapshot> pools) {
    for (PoolSnapshot pool : pools) {
      for (EndpointState e : pool.endpoints()) {
        if (e.available()) {
          return true;
        }
      }
    }
    return false;
  }

  private static String noEndpointReason(SchedulingRequest request, List<PoolSnapshot> pools) {
    int total = 0;
    for (PoolSnapshot p : pools) {
      total += p.endpoints().size();
    }
    if (total == 0) {
      return "no endpoints in pool " + poolNames(pools);
    }
    if (request.subset() != null) {
      return "no ready endpoint in the subset hint " + request.subset();
    }
    return "no ready endpoint in pool " + poolNames(pools) + " (" + total + " known, none ready)";
  }

  private static String poolNames(List<PoolSnapshot> pools) {
    StringBuilder sb = new StringBuilder();
    for (PoolSnapshot p : pools) {
      sb.append(sb.isEmpty() ? "" : ",").append(p.pool());
    }
    return sb.toString();
  }

  private static double clamp(double v) {
    if (Double.isNaN(v)) {
      return 0.0;
    }
    return Math.max(0.0, Math.min(1.0, v));
  }
}
