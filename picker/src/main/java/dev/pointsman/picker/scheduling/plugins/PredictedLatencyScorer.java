package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.LoraState;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import dev.pointsman.picker.scheduling.SpeedProfile;
import dev.pointsman.picker.scheduling.latency.AdapterLoadModel;
import dev.pointsman.picker.scheduling.latency.LatencyModel;
import java.util.List;

/**
 * {@code predicted-latency-scorer}: prefers the endpoint where this request's time to first token
 * is predicted to be lowest. The estimate is analytic: the prompt tokens queued ahead (scraped
 * waiting requests at the mean uncached prompt size of what the picker sends that endpoint, plus
 * the exact tokens the picker sent since the scrape) and this prompt's uncached part, processed in
 * engine steps whose length depends on the endpoint's GPU speed and its running batch. The learned
 * {@link LatencyModel} corrects that per endpoint. For a LoRA request, the time its adapter adds is
 * priced from the adapter's state there ({@link dev.pointsman.picker.scheduling.LoraState}) with
 * load times and slot waits learned from observed first tokens ({@link AdapterLoadModel}). A
 * candidate that would recompute prompt tokens another candidate holds in cache is charged that
 * prefill too, in seconds of its GPU, scaled by how full the candidates' KV caches are ({@code
 * cacheValue}): an idle fleet has compute to spare, a busy one pays for every recomputed prompt in
 * capacity, at the endpoint's learned speed. Where what the holder caches is this conversation's
 * history (the prompt continues one the picker sent there, and no other request in flight there
 * shares it), moving costs more: the recompute buys no replica that others will use, and the
 * session's later turns follow it; that prefill is charged at {@code privateCacheValue} instead.
 * With {@code decodeValue} above 0 (off by default), a candidate is also charged what joining its
 * running batch costs the requests already there: every step reads this request's KV cache too.
 * Where a candidate's KV cache is too full to admit the prefill queued there and this prompt, the
 * prediction includes the wait for finishing requests to free blocks ({@code kvAdmission}, on by
 * default); where its running batch is at the engine's sequence cap ({@code maxRunningRequests}),
 * the wait for a running request to finish for each one queued ahead. A step's length counts the
 * context every running sequence reads, not only the KV cache in use: sequences that share a cached
 * document each read it. Score is {@code fastest / this}, in (0,1].
 */
public final class PredictedLatencyScorer implements Scorer {
  public static final String TYPE = "predicted-latency-scorer";

  /** Predictions are floored here so that a score is always finite and positive. */
  private static final double MIN_SECONDS = 1e-4;

  /** Default prior for the wait for an adapter slot when every slot holds live requests. */
  public static final double DEFAULT_SLOT_WAIT_SECONDS = 2.0;

  /** Default weight of the fleet's cost of recomputing a prompt that another endpoint caches. */
  public static final double DEFAULT_CACHE_VALUE = 1.0;

  /**
   * Default weight of that cost where the cached prefix is no other in-flight request's (a
   * conversation's own history).
   */
  public static final double DEFAULT_PRIVATE_CACHE_VALUE = 8.0;

  /** Default weight of the decoding time a request adds to the running batch it joins. */
  public static final double DEFAULT_DECODE_VALUE = 0.0;

  /**
   * Default engine steps of the running batch's growth that must fit in a KV cache beside the
   * prompts it admits (see {@link #kvWaitSeconds}).
   */
  public static final double DEFAULT_KV_RESERVE_STEPS = 10.0;

  /**
   * Default cap on an engine's running sequences: vLLM's {@code --max-num-seqs} default (256); set
   * it to the engines' own setting. A running count scraped above it shows the cap is higher.
   */
  public static final int DEFAULT_MAX_RUNNING_REQUESTS = 256;

  /** Prices from the priors alone, for a scheduler without a learned model; never trained. */
  private static final AdapterLoadModel PRIORS = new AdapterLoadModel();

  private final double meanPromptTokens;
  private final double loraLoadSeconds;
  private final double loraSlotWaitSeconds;
  private final double cacheValue;
  private final double privateCacheValue;
  private final double decodeValue;
  private final boolean kvAdmission;
  private final double kvReserveSteps;
  private final int maxRunningRequests;

  /**
   * @param meanPromptTokens prompt tokens assumed for each scraped waiting request
   */
  public PredictedLatencyScorer(double meanPromptTokens) {
    this(
        meanPromptTokens,
        0.5,
        DEFAULT_SLOT_WAIT_SECONDS,
        DEFAULT_CACHE_VALUE,
        DEFAULT_PRIVATE_CACHE_VALUE,
        DEFAULT_DECODE_VALUE,
        true,
        DEFAULT_KV_RESERVE_STEPS,
        DEFAULT_MAX_RUNNING_REQUESTS);
  }

  /**
   * @param meanPromptTokens prompt tokens assumed per scraped waiting request until the picker has
   *     observed enough requests to know
   * @param loraLoadSeconds what one adapter load is assumed to take until loads have been observed
   * @param loraSlotWaitSeconds what waiting for an adapter slot is assumed to take until such waits
   *     have been observed
   * @param cacheValue how much of the fleet's cost of recomputing a cached prompt counts, at full
   *     KV-cache use (0 = judge each request by its own TTFT alone)
   * @param privateCacheValue the same where the holder's cached prefix is shared by no other
   *     request in flight there: a conversation's own history
   * @param decodeValue how much a second of decoding that this request adds to the requests running
   *     where it goes (they all read its KV cache at every step) counts against a second of its own
   *     time to first token; 0 = time to first token alone
   * @param kvAdmission whether a prompt waits for KV-cache blocks where the cache is full ({@link
   *     #kvWaitSeconds}); false = compute alone sets the pace
   * @param kvReserveSteps engine steps of the running batch's growth that must fit beside the
   *     prompts a KV cache admits
   * @param maxRunningRequests the engines' cap on running sequences (vLLM's {@code --max-num-seqs},
   *     SGLang's {@code --max-running-requests}); 0 = no cap is assumed ({@link #slotWaitSeconds})
   */
  public PredictedLatencyScorer(
      double meanPromptTokens,
      double loraLoadSeconds,
      double loraSlotWaitSeconds,
      double cacheValue,
      double privateCacheValue,
      double decodeValue,
      boolean kvAdmission,
      double kvReserveSteps,
      int maxRunningRequests) {
    if (!(meanPromptTokens >= 0) || Double.isInfinite(meanPromptTokens)) {
      throw new IllegalArgumentException(
          "meanPromptTokens: " + meanPromptTokens + " (expected a finite number >= 0)");
    }
    if (!(loraLoadSeconds >= 0) || Double.isInfinite(loraLoadSeconds)) {
      throw new IllegalArgumentException(
          "loraLoadSeconds: " + loraLoadSeconds + " (expected a finite number >= 0)");
    }
    if (!(loraSlotWaitSeconds >= 0) || Double.isInfinite(loraSlotWaitSeconds)) {
      throw new IllegalArgumentException(
          "loraSlotWaitSeconds: " + loraSlotWaitSeconds + " (expected a finite number >= 0)");
    }
    this.meanPromptTokens = meanPromptTokens;
    this.loraLoadSeconds = loraLoadSeconds;
    if (!(cacheValue >= 0) || Double.isInfinite(cacheValue)) {
      throw new IllegalArgumentException(
          "cacheValue: " + cacheValue + " (expected a finite number >= 0)");
    }
    this.loraSlotWaitSeconds = loraSlotWaitSeconds;
    this.cacheValue = cacheValue;
    if (!(privateCacheValue >= 0) || Double.isInfinite(privateCacheValue)) {
      throw new IllegalArgumentException(
          "privateCacheValue: " + privateCacheValue + " (expected a finite number >= 0)");
    }
    this.privateCacheValue = privateCacheValue;
    if (!(decodeValue >= 0) || Double.isInfinite(decodeValue)) {
      throw new IllegalArgumentException(
          "decodeValue: " + decodeValue + " (expected a finite number >= 0)");
    }
    this.decodeValue = decodeValue;
    if (!(kvReserveSteps >= 0) || Double.isInfinite(kvReserveSteps)) {
      throw new IllegalArgumentException(
          "kvReserveSteps: " + kvReserveSteps + " (expected a finite number >= 0)");
    }
    this.kvAdmission = kvAdmission;
    this.kvReserveSteps = kvReserveSteps;
    if (maxRunningRequests < 0) {
      throw new IllegalArgumentException(
          "maxRunningRequests: " + maxRunningRequests + " (expected >= 0; 0 = no cap)");
    }
    this.maxRunningRequests = maxRunningRequests;
  }

  public PredictedLatencyScorer() {
    this(256);
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    int n = candidates.size();
    double[] analytic = new double[n];
    double[] adapter = new double[n];
    double[] predicted = new double[n];
    double[] uncached = new double[n];
    double fewestUncached = Double.POSITIVE_INFINITY;
    double kvUse = 0;
    LatencyModel model = context.latencyModel();
    AdapterLoadModel loads = context.adapterLoads();
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      uncached[i] = request.promptTokens() - context.cachedTokens(i, request.promptTokens());
      fewestUncached = Math.min(fewestUncached, uncached[i]);
      Candidate c = candidates.get(i);
      double observed = context.meanQueuedTokens(c.address());
      double perWaiting = Double.isNaN(observed) ? meanPromptTokens : observed;
      kvUse += c.metrics().kvUsageOrZero();
      analytic[i] = predictTtftSeconds(c, uncached[i], perWaiting, context.meanAnswerTokens());
      if (request.adapter() != null) {
        adapter[i] = adapterSeconds(c, request.adapter(), context, loads);
      }
      double base = model == null ? analytic[i] : model.predict(c.address(), analytic[i]);
      predicted[i] = base + adapter[i];
      out[i] = Math.max(MIN_SECONDS, predicted[i]);
    }
    // Recomputing a prompt another endpoint holds costs the fleet that prefill, which matters as
    // much as the fleet is busy: weighed by the candidates' mean KV-cache use, a proxy for it.
    // The prefill is priced at the endpoint's learned speed: its prior's throughput over the
    // factor its observed first tokens taught the model. Moving a conversation's own history (a
    // prompt that continues one sent to the holder, shared by no other request in flight there) is
    // priced at the private value.
    double value =
        privateCacheValue != cacheValue
                && kvUse > 0
                && fewestUncached < request.promptTokens()
                && heldPrivately(candidates, context, uncached, fewestUncached)
            ? privateCacheValue
            : cacheValue;
    double busy = value * kvUse / n;
    for (int i = 0; i < n; i++) {
      if (busy > 0 && uncached[i] > fewestUncached) {
        Candidate c = candidates.get(i);
        double factor = model == null ? 1.0 : model.factor(c.address());
        out[i] +=
            busy * factor * (uncached[i] - fewestUncached) / c.profile().prefillTokensPerSecond();
      }
    }
    if (decodeValue > 0) {
      addBatchSlowdown(request, candidates, out);
    }
    for (int i = 0; i < n; i++) {
      best = Math.min(best, out[i]);
    }
    context.analyticTtft(analytic);
    context.adapterSeconds(adapter);
    context.predictedTtft(predicted);
    for (int i = 0; i < n; i++) {
      out[i] = best / out[i];
    }
  }

  /**
   * Whether the candidates holding the most of this prompt hold, by the picker's own index, only
   * this conversation's history ({@link CycleState#holdsPrivately}): true where at least one holds
   * some of it and every one of them holds it privately.
   */
  private static boolean heldPrivately(
      List<Candidate> candidates, CycleState context, double[] uncached, double fewest) {
    if (!context.knowsSharing()) {
      return false;
    }
    boolean known = false;
    for (int i = 0; i < uncached.length; i++) {
      if (uncached[i] == fewest && context.textMatches(i) > 0) {
        if (!context.holdsPrivately(i, candidates.get(i).address())) {
          return false;
        }
        known = true;
      }
    }
    return known;
  }

  /**
   * Adds to each candidate's seconds what joining its running batch costs the requests already in
   * it, beyond the cheapest candidate's: every step that batch takes reads this request's KV cache
   * too, so each running sequence decodes its remaining tokens (half the expected output, on
   * average) that much slower, priced at the GPU's speed prior (the learned TPOT factor is not
   * applied: scaled by it, the charge cost two pods on the training set's grouped prompts, S3
   * groups). A long prompt joining a large batch of long contexts is dear; a short one, or any
   * request on an idle pod, costs the others almost nothing. The request's own decoding pace is not
   * charged: the time to first token already weighs GPU speed, and charging an L4's pace keeps the
   * L4s idle while the fast pods queue.
   */
  private void addBatchSlowdown(
      SchedulingRequest request, List<Candidate> candidates, double[] out) {
    int n = candidates.size();
    double[] cost = new double[n];
    double least = Double.POSITIVE_INFINITY;
    double remaining = Scheduler.expectedOutputTokens(request) / 2.0;
    for (int i = 0; i < n; i++) {
      Candidate c = candidates.get(i);
      SpeedProfile p = c.profile();
      int running = c.running() + c.load().pendingRequests();
      double held = c.contextTokens();
      double slower =
          p.stepSeconds(running + 1, held + request.promptTokens()) - p.stepSeconds(running, held);
      cost[i] = running * Math.max(0.0, slower) * remaining;
      least = Math.min(least, cost[i]);
    }
    for (int i = 0; i < n; i++) {
      out[i] += decodeValue * (cost[i] - least);
    }
  }

  /** Seconds the request's adapter adds on {@code c}: learned load prices, or the priors. */
  private double adapterSeconds(
      Candidate c, String adapter, CycleState context, AdapterLoadModel loads) {
    LoraState state = LoraAffinityScorer.state(c, adapter, context);
    if (state == LoraState.NONE || state == LoraState.RESIDENT) {
      return 0.0;
    }
    int ahead = context.loadsInProgress(c.address());
    return (loads == null ? PRIORS : loads)
        .price(c.address(), state, ahead, loraLoadSeconds, loraSlotWaitSeconds);
  }

  /** Predicted seconds to this request's first token on {@code c}. */
  public double predictTtftSeconds(Candidate c, double uncachedPromptTokens) {
    return predictTtftSeconds(c, uncachedPromptTokens, meanPromptTokens);
  }

  /**
   * Predicted seconds to this request's first token on {@code c}, counting each scraped waiting
   * request as {@code tokensPerWaiting} prompt tokens to prefill and answers as a typical chat
   * answer's length.
   */
  public double predictTtftSeconds(
      Candidate c, double uncachedPromptTokens, double tokensPerWaiting) {
    return predictTtftSeconds(c, uncachedPromptTokens, tokensPerWaiting, Double.NaN);
  }

  /**
   * Predicted seconds to this request's first token on {@code c}, counting each scraped waiting
   * request as {@code tokensPerWaiting} prompt tokens to prefill, with answers of {@code
   * meanAnswerTokens} output tokens on average (NaN: a typical chat answer's length). The prefill
   * ahead and this prompt's are processed at the GPU's pace; when every sequence slot is taken,
   * this request waits for one ({@link #slotWaitSeconds}); when the endpoint's KV cache cannot hold
   * them, they wait for blocks too ({@link #kvWaitSeconds}).
   */
  public double predictTtftSeconds(
      Candidate c, double uncachedPromptTokens, double tokensPerWaiting, double meanAnswerTokens) {
    double scraped = c.metrics().waitingRequests() * tokensPerWaiting + c.load().pendingTokens();
    // the prefill the picker itself sent and has not seen a first token for is known exactly;
    // the scrape may add work from other routers
    double queued = Math.max(scraped, c.load().prefillTokens());
    double seconds = prefillSeconds(c, queued + uncachedPromptTokens);
    // admission waits for a free sequence slot and, with kvAdmission, for free blocks
    double wait = slotWaitSeconds(c, meanAnswerTokens);
    if (kvAdmission) {
      wait = Math.max(wait, kvWaitSeconds(c, queued + uncachedPromptTokens, meanAnswerTokens));
    }
    // once admitted, this prompt's own prefill still takes its steps
    return wait <= 0 ? seconds : Math.max(seconds, wait + prefillSeconds(c, uncachedPromptTokens));
  }

  /** Output tokens per answer: {@code meanAnswerTokens}, or a typical chat answer's when NaN. */
  private static double answerTokens(double meanAnswerTokens) {
    return Double.isNaN(meanAnswerTokens)
        ? Scheduler.TYPICAL_OUTPUT_TOKENS
        : Math.max(1.0, meanAnswerTokens);
  }

  /**
   * Seconds {@code c} takes to prefill {@code tokens} (at least one) in steps of its token budget
   * beside its running batch. A step reads the weights and the running batch's KV cache at least:
   * with a large batch of long contexts that, not the prompt's compute, sets the pace.
   */
  private static double prefillSeconds(Candidate c, double tokens) {
    SpeedProfile p = c.profile();
    double work = Math.max(1.0, tokens);
    double running = c.running();
    double perStepTokens = Math.max(1.0, p.tokenBudget() - running);
    return Math.ceil(work / perStepTokens)
        * p.stepSeconds(Math.min(work, perStepTokens) + running, attendedTokens(c));
  }

  /**
   * Tokens of context {@code c}'s running batch reads at each step: the KV cache in use, or, where
   * its sequences share cached prefixes (each sequence still reads its whole context, though the
   * cache holds a shared document once), the running count at the mean prompt length of the
   * picker's live requests there, whichever is more.
   */
  static double attendedTokens(Candidate c) {
    double held = c.contextTokens();
    InFlightTracker.Load load = c.load();
    if (load.liveRequests() <= 0) {
      return held;
    }
    return Math.max(held, (double) load.liveTokens() / load.liveRequests() * c.running());
  }

  /**
   * Seconds until one of {@code c}'s sequence slots is free for this request. An engine runs at
   * most {@code maxRunningRequests} sequences and admits waiting ones in order as running ones
   * finish, about one per {@code meanAnswerTokens} steps each: so with the cap reached, every
   * request queued ahead (scraped, plus the picker's picks since) waits for one to finish, whatever
   * its prefill costs. 0 while a slot is free for it, or with no cap set. A running count scraped
   * above the setting shows the engine's cap is higher: it is then taken as reached only while
   * requests wait.
   */
  double slotWaitSeconds(Candidate c, double meanAnswerTokens) {
    if (maxRunningRequests <= 0) {
      return 0.0;
    }
    int running = c.running();
    int waiting = c.waiting();
    if (running > maxRunningRequests && waiting == 0) {
      return 0.0;
    }
    int free = Math.max(0, maxRunningRequests - running);
    if (waiting < free) {
      return 0.0;
    }
    double answer = answerTokens(meanAnswerTokens);
    int batch = Math.max(1, running);
    double step = c.profile().stepSeconds(batch, attendedTokens(c));
    return (waiting - free + 1) * answer * step / batch;
  }

  /**
   * Seconds until {@code c}'s KV cache has room for {@code promptTokens} of new prompts (the
   * prefill queued ahead and this request's uncached part) with {@code kvReserveSteps} engine steps
   * of the running batch's growth to spare; 0 when it has room now or its capacity is unknown. An
   * engine admits a waiting request only when blocks for its prompt are free (vLLM's scheduler; a
   * running request that cannot grow is preempted and queued again, ahead of new ones), so on a
   * full cache the queue moves as fast as finishing requests free blocks, whatever the GPU's
   * compute. The running batch (scraped, plus the picker's picks since) holds the scraped use; its
   * requests finish at about one per {@code meanAnswerTokens} steps each, each freeing its share of
   * that use, while every step adds a token to each. When growth outpaces that, the batch must turn
   * over before anything new is admitted: one answer's length of steps.
   */
  double kvWaitSeconds(Candidate c, double promptTokens, double meanAnswerTokens) {
    long capacity = c.metrics().kvCapacityTokens();
    if (capacity <= 0) {
      return 0.0;
    }
    double held = c.contextTokens();
    int batch = c.running() + c.load().pendingRequests();
    double needed = promptTokens + kvReserveSteps * batch;
    double deficit = needed - (capacity - held);
    if (deficit <= 0) {
      return 0.0;
    }
    double answer = answerTokens(meanAnswerTokens);
    double step = c.profile().stepSeconds(batch, held);
    double turnover = answer * step;
    double freedPerSecond = (held / answer - batch) / step;
    return freedPerSecond > 0 ? Math.min(turnover, deficit / freedPerSecond) : turnover;
  }
}
