package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Fixtures;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.SpeedProfile;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hand-computed with the test's own profiles (not the built-in priors): fast 32,000 tok/s, budget
 * 8,192, decode 8 ms; slow 4,000 tok/s, budget 2,048, decode 80 ms; mid 10,000 tok/s, budget 2,048,
 * 16 ms plus 0.1 µs per token of context. Mean prompt 256 tokens per scraped waiting request.
 */
class PredictedLatencyScorerTest {
  private static final CycleState NO_PREFIX = new CycleState(0, new long[0]);
  private final PredictedLatencyScorer scorer = new PredictedLatencyScorer();

  static final SpeedProfile FAST = new SpeedProfile("fast", 32_000, 0.008, 8192, 0);
  static final SpeedProfile SLOW = new SpeedProfile("slow", 4_000, 0.08, 2048, 0);
  static final SpeedProfile MID = new SpeedProfile("mid", 10_000, 0.016, 2048, 0.1e-6);

  private static SpeedProfile profile(String name) {
    return switch (name) {
      case "fast" -> FAST;
      case "slow" -> SLOW;
      default -> MID;
    };
  }

  private static Candidate on(SpeedProfile p, int waiting, int running, long pendingTokens) {
    InFlightTracker.Load load =
        pendingTokens == 0 ? InFlightTracker.Load.NONE : Fixtures.pending(1, pendingTokens);
    return Fixtures.withProfile("10.0.0.1:8000", p, Fixtures.metrics(waiting, running, 0.0), load);
  }

  @ParameterizedTest(name = "{0} waiting {1} running {2} pending {3} tok, {4} uncached -> {5} s")
  @CsvSource({
    "fast, 0,   0,   0,    1000, 0.03125", // 1 step of 1000/32000
    "slow, 0,   0,   0,    1000, 0.25", // 1000/4000
    "fast, 100, 0,   0,    1000, 1.024", // 26600 tok: 4 full steps of 8192/32000
    "fast, 0,   100, 0,    1000, 0.034375", // (1000+100)/32000
    "slow, 0,   0,   2000, 1000, 1.024", // 3000 tok: 2 steps of 2048/4000
    "mid,  0,   0,   0,    1000, 0.1", // 1000/10000
    "fast, 0,   0,   0,    0,    0.008", // empty work: one step, the weight-read floor
    "slow, 2,   0,   0,    0,    0.128", // 2 × 256 queued tokens / 4000
  })
  void predictedTtft(
      String gpu, int waiting, int running, long pending, double uncached, double seconds) {
    assertThat(scorer.predictTtftSeconds(on(profile(gpu), waiting, running, pending), uncached))
        .isCloseTo(seconds, within(1e-9));
  }

  private double[] score(List<Candidate> candidates, CycleState state, int promptTokens) {
    double[] out = new double[candidates.size()];
    scorer.score(Fixtures.request(null, "", promptTokens), candidates, state, out);
    return out;
  }

  @Test
  void idleH100BeatsIdleL4ForTheSamePrompt() {
    double[] s = score(List.of(on(FAST, 0, 0, 0), on(SLOW, 0, 0, 0)), NO_PREFIX, 1000);

    assertThat(s[0]).isEqualTo(1.0);
    assertThat(s[1]).isCloseTo(0.03125 / 0.25, within(1e-9));
  }

  @Test
  void aLargeBatchOfLongContextsSlowsEveryStep() {
    // 200 running sequences holding 90% of 448k tokens of KV: each step reads ~400k tokens of cache
    var full =
        new dev.pointsman.picker.scheduling.EndpointMetrics(
            0, 200, 0.9, 448_000, java.util.Set.of(), java.util.Set.of(), -1, Double.NaN, 0);
    var light =
        new dev.pointsman.picker.scheduling.EndpointMetrics(
            0, 200, 0.05, 448_000, java.util.Set.of(), java.util.Set.of(), -1, Double.NaN, 0);
    PredictedLatencyScorer scorer = new PredictedLatencyScorer();
    double longContexts =
        scorer.predictTtftSeconds(
            Fixtures.withProfile("a:1", MID, full, InFlightTracker.Load.NONE), 100);
    double shortContexts =
        scorer.predictTtftSeconds(
            Fixtures.withProfile("b:1", MID, light, InFlightTracker.Load.NONE), 100);
    // weights 16 ms + 403k × 0.1 µs ≈ 56 ms, against the compute of 300 tokens = 30 ms
    assertThat(longContexts).isCloseTo(0.016 + 403_200 * 0.1e-6, within(1e-6));
    assertThat(longContexts).isGreaterThan(shortContexts);
  }

  @Test
  void aBusyFleetValuesTheCacheAQuietOneSpendsForSpeed() {
    // a 4,096-token prompt: endpoint 0 holds all of it but has 5,000 tokens of prefill queued;
    // endpoint 1 holds none and is idle. Alone, the idle one answers first.
    long[] blocks = java.util.stream.LongStream.rangeClosed(1, 256).toArray();
    CycleState state = Fixtures.cycle(blocks, new int[] {256, 0});
    for (double kv : new double[] {0.1, 0.9}) {
      List<Candidate> c =
          List.of(
              Fixtures.withProfile(
                  "10.0.0.1:8000",
                  MID,
                  new dev.pointsman.picker.scheduling.EndpointMetrics(
                      0, 0, kv, 448_000, java.util.Set.of(), java.util.Set.of(), -1, Double.NaN, 0),
                  new InFlightTracker.Load(0, 0, 0, 0, 2, 5_000)),
              Fixtures.withProfile(
                  "10.0.0.2:8000",
                  MID,
                  new dev.pointsman.picker.scheduling.EndpointMetrics(
                      0, 0, kv, 448_000, java.util.Set.of(), java.util.Set.of(), -1, Double.NaN, 0),
                  InFlightTracker.Load.NONE));
      double[] cacheBlind = new double[2];
      new PredictedLatencyScorer(256, 0.5, 2.0, 0, 0, 0, true, 10, 256)
          .score(Fixtures.request(null, "", 4096), c, state, cacheBlind);
      assertThat(cacheBlind[1]).as("by TTFT alone, at KV %s", kv).isGreaterThan(cacheBlind[0]);
      double[] out = score(c, state, 4096);
      if (kv < 0.5) {
        assertThat(out[1]).as("a quiet fleet: speed first").isGreaterThan(out[0]);
      } else {
        // recomputing 4,096 tokens costs a busy fleet ~0.41 s of the mid GPU (× 0.9): keep the
        // cache
        assertThat(out[0]).as("a busy fleet: keep the cache").isGreaterThan(out[1]);
      }
    }
  }

  @Test
  void theFleetsRecomputeCostIsPricedAtTheLearnedSpeed() {
    // endpoint 0 holds the 4,096-token prompt with 2,000 tokens queued (0.2 s); endpoint 1 holds
    // none, and its first tokens showed it five times faster than its prior
    long[] blocks = java.util.stream.LongStream.rangeClosed(1, 256).toArray();
    dev.pointsman.picker.scheduling.latency.LatencyModel model =
        new dev.pointsman.picker.scheduling.latency.LatencyModel();
    for (int i = 0; i < 50; i++) {
      model.observe("10.0.0.2:8000", 0.1 + i * 0.01, 0.2 * (0.1 + i * 0.01));
    }
    CycleState state = Fixtures.cycle(blocks, new int[] {256, 0}, model);
    List<Candidate> c = queuedAndIdle(2_000);
    double[] out = score(c, state, 4096);
    // its own prefill takes 0.08 s and recomputing costs the fleet 0.9 × 0.08 s: it wins; priced
    // at its prior's speed (0.37 s) the recompute would have sent the request to the queue
    assertThat(out[1]).isEqualTo(1.0);
    assertThat(out[0]).isLessThan(0.85);
  }

  /**
   * Two mid-GPU endpoints at 90% KV use: 10.0.0.1 with {@code queuedPrefill} tokens of prefill the
   * picker sent and has no first token for, 10.0.0.2 idle.
   */
  private static List<Candidate> queuedAndIdle(long queuedPrefill) {
    var busy =
        new dev.pointsman.picker.scheduling.EndpointMetrics(
            0, 0, 0.9, 448_000, java.util.Set.of(), java.util.Set.of(), -1, Double.NaN, 0);
    return List.of(
        Fixtures.withProfile(
            "10.0.0.1:8000", MID, busy, new InFlightTracker.Load(0, 0, 0, 0, 1, queuedPrefill)),
        Fixtures.withProfile("10.0.0.2:8000", MID, busy, InFlightTracker.Load.NONE));
  }

  @Test
  void movingAConversationsOwnHistoryCostsMoreThanMovingAPrefixOthersShare() {
    // this turn's prompt is 300 blocks (4,800 tokens); endpoint 0 was sent the previous turn, its
    // first 256 blocks, and has 15,000 tokens of prefill queued (1.6 s); endpoint 1 holds none and
    // is idle: its own prefill takes 0.48 s, and recomputing the 4,096 cached tokens costs a busy
    // fleet 0.9 × 0.41 s at the shared value (1), 8 × that at the private one
    long[] prompt = java.util.stream.LongStream.rangeClosed(1, 300).toArray();
    long[] previousTurn = java.util.Arrays.copyOf(prompt, 256);
    long[] otherQuestion = java.util.Arrays.copyOf(prompt, 280);
    java.util.Arrays.fill(otherQuestion, 256, 280, 999);
    int[] matches = {256, 0};
    List<Candidate> c = queuedAndIdle(15_000);
    var request = Fixtures.request(null, "", 4800);
    PrefixIndex conversation = new PrefixIndex(10_000);
    conversation.record("10.0.0.1:8000", previousTurn);

    InFlightTracker nothingElse = new InFlightTracker();
    double[] alone = new double[2];
    scorer.score(request, c, Fixtures.cycle(prompt, matches, nothingElse, conversation), alone);
    assertThat(alone[0]).as("it continues the previous turn: the history stays").isEqualTo(1.0);

    // the previous turn, still answering there, is a prefix of this prompt: no other sharer
    InFlightTracker answering = new InFlightTracker();
    answering.assign("10.0.0.1:8000", 4096, 0, null, false, previousTurn);
    double[] turn = new double[2];
    scorer.score(request, c, Fixtures.cycle(prompt, matches, answering, conversation), turn);
    assertThat(turn).containsExactly(alone, within(1e-12));

    // another request in flight there starts with the same 256 blocks and goes on differently
    InFlightTracker sibling = new InFlightTracker();
    sibling.assign("10.0.0.1:8000", 4480, 0, null, false, otherQuestion);
    double[] shared = new double[2];
    scorer.score(request, c, Fixtures.cycle(prompt, matches, sibling, conversation), shared);
    assertThat(shared[1]).as("a shared prefix gains a second holder").isEqualTo(1.0);
    assertThat(shared[0]).isLessThan(0.9);

    // a document another prompt went on from, with nothing in flight: no turn ended there
    PrefixIndex document = new PrefixIndex(10_000);
    document.record("10.0.0.1:8000", otherQuestion);
    double[] cold = new double[2];
    scorer.score(request, c, Fixtures.cycle(prompt, matches, nothingElse, document), cold);
    assertThat(cold).containsExactly(shared, within(1e-12));

    // without the picker's accounting the shared price is the only one
    double[] unknown = new double[2];
    scorer.score(request, c, Fixtures.cycle(prompt, matches), unknown);
    assertThat(unknown).containsExactly(shared, within(1e-12));

    // the private price is the operator's
    double[] flat = new double[2];
    new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 0, true, 10, 256)
        .score(request, c, Fixtures.cycle(prompt, matches, nothingElse, conversation), flat);
    assertThat(flat).containsExactly(shared, within(1e-12));
  }

  private static Candidate mid(String address, int running, double kv) {
    return Fixtures.withProfile(
        address,
        MID,
        new dev.pointsman.picker.scheduling.EndpointMetrics(
            0, running, kv, 448_000, java.util.Set.of(), java.util.Set.of(), -1, Double.NaN, 0),
        InFlightTracker.Load.NONE);
  }

  @Test
  void aLongPromptJoiningABigBatchOfLongContextsIsChargedWhatItCostsThatBatch() {
    // a 4,096-token prompt; endpoint 0 caches it and runs 60 sequences holding 403k tokens of KV,
    // endpoint 1 caches nothing and runs 2. Joining endpoint 0 makes each of its steps read 4,096
    // more tokens (0.41 ms on the mid GPU) for 60 sequences over 100 tokens each: about 2.5 s of
    // the others' time, against 0.08 s on endpoint 1 and recomputing the prompt there (~0.5 s)
    long[] blocks = java.util.stream.LongStream.rangeClosed(1, 256).toArray();
    CycleState state = Fixtures.cycle(blocks, new int[] {256, 0});
    List<Candidate> c = List.of(mid("10.0.0.1:8000", 60, 0.9), mid("10.0.0.2:8000", 2, 0.05));
    var request = Fixtures.request(null, "", 4096);
    double[] firstToken = new double[2];
    new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 0, true, 10, 256)
        .score(request, c, state, firstToken);
    assertThat(firstToken[0]).as("by first token alone the cache wins").isEqualTo(1.0);

    double[] decoding = new double[2];
    new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 1.0, true, 10, 256)
        .score(request, c, state, decoding);
    assertThat(decoding[1]).as("what it costs the big batch moves it").isEqualTo(1.0);
    assertThat(decoding[0]).isLessThan(0.5);
  }

  @Test
  void podsWithoutARunningBatchAreChargedNothingWhateverTheirGpu() {
    // idle pods of a fast, a slow and a mid GPU: the charge is the same (none) on each, so the
    // scores are those of time to first token alone, the slow GPU's pace included
    List<Candidate> c = List.of(on(FAST, 0, 0, 0), on(SLOW, 0, 0, 0), mid("10.0.0.3:8000", 0, 0));
    var request = Fixtures.request(null, "", 2048);
    double[] firstToken = new double[3];
    new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 0, true, 10, 256)
        .score(request, c, NO_PREFIX, firstToken);
    double[] decoding = new double[3];
    new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 1.0, true, 10, 256)
        .score(request, c, NO_PREFIX, decoding);
    assertThat(decoding).containsExactly(firstToken, within(1e-12));
  }

  /** An endpoint of the mid GPU with 448k tokens of KV cache, {@code kv} of it in use. */
  private static Candidate kv(String address, int waiting, int running, double kv) {
    return kv(address, waiting, running, kv, InFlightTracker.Load.NONE);
  }

  /** {@link #kv} with the picker's own load there. */
  private static Candidate kv(
      String address, int waiting, int running, double kv, InFlightTracker.Load load) {
    return Fixtures.withProfile(
        address,
        MID,
        new dev.pointsman.picker.scheduling.EndpointMetrics(
            waiting,
            running,
            kv,
            448_000,
            java.util.Set.of(),
            java.util.Set.of(),
            -1,
            Double.NaN,
            0),
        load);
  }

  private static final PredictedLatencyScorer NO_CAP =
      new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 0, true, 10, 0);

  @Test
  void withEverySequenceSlotTakenEachRequestQueuedAheadWaitsForOneToFinish() {
    // the default cap, 256 sequences, all taken by answers of 1,000 tokens: a 100-token prompt
    // behind cached documents costs next to nothing to prefill, but it is not admitted until
    // running requests finish
    Candidate full = kv("10.0.0.1:8000", 40, 256, 0.2);
    double computeOnly = NO_CAP.predictTtftSeconds(full, 100, 256, 1000);
    double queued40 = scorer.predictTtftSeconds(full, 100, 256, 1000);
    double queued120 =
        scorer.predictTtftSeconds(kv("10.0.0.1:8000", 120, 256, 0.2), 100, 256, 1000);
    assertThat(queued40).isGreaterThan(2 * computeOnly);
    assertThat(queued120).as("a longer queue waits longer").isGreaterThan(2 * queued40);
    assertThat(scorer.predictTtftSeconds(full, 100, 256, 4000))
        .as("longer answers hold their slots longer")
        .isGreaterThan(3 * queued40);
    // the wait is the queue over the rate at which slots free: one per answer's length of steps
    double step = MID.stepSeconds(256, 0.2 * 448_000);
    assertThat(scorer.slotWaitSeconds(full, 1000)).isCloseTo(41 * 1000 * step / 256, within(1e-9));
  }

  @Test
  void aFreeSlotOrNoCapLeavesTheComputeEstimate() {
    // 200 running, 40 waiting: 56 slots free, every queued request is admitted at once
    Candidate room = kv("10.0.0.1:8000", 40, 200, 0.2);
    assertThat(scorer.slotWaitSeconds(room, 200)).isZero();
    assertThat(scorer.predictTtftSeconds(room, 100, 256, 200))
        .isEqualTo(NO_CAP.predictTtftSeconds(room, 100, 256, 200));
    // the picker's own picks since the scrape queue too: 60 more fill the free slots
    Candidate picked = kv("10.0.0.1:8000", 40, 200, 0.2, Fixtures.pending(60, 6_000));
    assertThat(scorer.slotWaitSeconds(picked, 200)).isGreaterThan(0);
    assertThat(NO_CAP.slotWaitSeconds(kv("10.0.0.1:8000", 500, 256, 0.2), 200)).isZero();
  }

  @Test
  void aRunningCountAboveTheSettingShowsTheCapIsHigher() {
    // the engine runs 400 sequences, so its cap is not 256: with nothing waiting, no slot wait;
    // with requests waiting it is taken as full
    assertThat(scorer.slotWaitSeconds(kv("10.0.0.1:8000", 0, 400, 0.5), 200)).isZero();
    assertThat(scorer.slotWaitSeconds(kv("10.0.0.1:8000", 30, 400, 0.5), 200)).isGreaterThan(0);
  }

  @Test
  void sequencesSharingACachedDocumentEachReadItAtEveryStep() {
    // 200 running requests on one 2,000-token document: the cache holds the document once (10%
    // of 448k tokens in use), but each sequence's attention reads all 2,000 tokens of its context:
    // a step beside them is bound by reading 400k tokens, not 45k
    InFlightTracker.Load shared = new InFlightTracker.Load(0, 0, 200, 200 * 2_000L);
    Candidate sharing = kv("10.0.0.1:8000", 0, 200, 0.1, shared);
    Candidate alone = kv("10.0.0.1:8000", 0, 200, 0.1);
    assertThat(scorer.predictTtftSeconds(sharing, 100, 256, 200))
        .isGreaterThan(scorer.predictTtftSeconds(alone, 100, 256, 200));
    assertThat(scorer.predictTtftSeconds(sharing, 100, 256, 200))
        .as("as if the cache held every sequence's context apart (compute alone: no block wait)")
        .isCloseTo(
            COMPUTE_ONLY.predictTtftSeconds(
                kv("10.0.0.1:8000", 0, 200, 400_000 / 448_000.0), 100, 256, 200),
            within(1e-9));
    // short live prompts read less than the cache in use: the cache's figure stands
    InFlightTracker.Load brief = new InFlightTracker.Load(0, 0, 200, 200 * 100L);
    assertThat(scorer.predictTtftSeconds(kv("10.0.0.1:8000", 0, 200, 0.1, brief), 100, 256, 200))
        .isEqualTo(scorer.predictTtftSeconds(alone, 100, 256, 200));
  }

  private static final PredictedLatencyScorer COMPUTE_ONLY =
      new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 0, false, 10, 256);

  @Test
  void aFullKvCacheMakesPromptsWaitForFinishingRequests() {
    // 200 running sequences fill 99.9% of the cache; 4 prompts wait. Compute alone would take them
    // in one step; blocks free only as the running requests finish.
    Candidate full = kv("10.0.0.1:8000", 4, 200, 0.999);
    double computeOnly = COMPUTE_ONLY.predictTtftSeconds(full, 1200, 256, 200);
    double shortAnswers = scorer.predictTtftSeconds(full, 1200, 256, 200);
    double longAnswers = scorer.predictTtftSeconds(full, 1200, 256, 1000);
    // short answers free blocks about as fast as compute takes the prompts
    assertThat(shortAnswers).isGreaterThanOrEqualTo(computeOnly);
    assertThat(longAnswers).isGreaterThan(2 * computeOnly);
    assertThat(longAnswers)
        .as("longer answers hold their blocks longer: the queue moves slower")
        .isGreaterThan(shortAnswers);
    // the same endpoint at half use admits at once: only the larger batch's reads differ
    Candidate roomy = kv("10.0.0.2:8000", 4, 200, 0.5);
    assertThat(scorer.predictTtftSeconds(roomy, 1200, 256, 1000))
        .isEqualTo(COMPUTE_ONLY.predictTtftSeconds(roomy, 1200, 256, 1000));
  }

  @Test
  void aBatchGrowingFasterThanItFreesBlocksMustTurnOverFirst() {
    // 400 sequences of ~1,100 tokens each: every step adds 400 tokens, while finishing answers of
    // 2,000 tokens free ~224 a step. Nothing new is admitted until the batch has turned over.
    Candidate growing = kv("10.0.0.1:8000", 0, 400, 0.999);
    double step = MID.stepSeconds(400, 0.999 * 448_000);
    double wait = scorer.kvWaitSeconds(growing, 1200, 2000);
    assertThat(wait).isGreaterThan(0);
    assertThat(wait).isGreaterThan(scorer.kvWaitSeconds(growing, 1200, 200));
    assertThat(wait).as("one answer's length of steps at most").isLessThanOrEqualTo(2000 * step);
  }

  @Test
  void unknownKvCapacityOrRoomLeaveNoWait() {
    Candidate unknown = on(MID, 4, 200, 0);
    assertThat(scorer.kvWaitSeconds(unknown, 100_000, 1000)).isZero();
    assertThat(scorer.kvWaitSeconds(kv("10.0.0.2:8000", 0, 10, 0.1), 4096, 1000)).isZero();
  }

  @Test
  void theReserveKeepsRoomForTheBatchToGrow() {
    // 2,240 tokens free, a 1,200-token prompt: it fits now, but 200 sequences grow by 200 tokens a
    // step, and 10 steps of that do not fit beside it
    Candidate tight = kv("10.0.0.1:8000", 0, 200, 0.995);
    assertThat(scorer.kvWaitSeconds(tight, 1200, 1000)).isGreaterThan(0);
    assertThat(
            new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 0, true, 0, 256)
                .kvWaitSeconds(tight, 1200, 1000))
        .isZero();
  }

  @Test
  void aCachedPrefixOnAFullKvCacheLosesToAColdPodWithRoom() {
    // grouped prompts (6,000 shared tokens + 1,200 of question, 1,000-token answers): endpoint 0
    // holds the group's prefix but its cache is full and 10 prompts wait there; endpoint 1 holds
    // nothing and has room. Compute alone says the cached one answers first; it cannot admit.
    long[] blocks = java.util.stream.LongStream.rangeClosed(1, 450).toArray();
    CycleState state = Fixtures.cycle(blocks, new int[] {375, 0});
    state.meanAnswerTokens(1000);
    List<Candidate> c =
        List.of(kv("10.0.0.1:8000", 10, 200, 0.999), kv("10.0.0.2:8000", 0, 150, 0.6));
    var request = Fixtures.request(null, "", 7200);
    double[] blind = new double[2];
    COMPUTE_ONLY.score(request, c, state, blind);
    assertThat(blind[0]).as("by compute alone the cache wins").isEqualTo(1.0);
    double[] admitted = new double[2];
    scorer.score(request, c, state, admitted);
    assertThat(admitted[1]).as("the pod that can admit it wins").isEqualTo(1.0);
    assertThat(admitted[0]).isLessThan(1.0);
  }

  @Test
  void rejectsANegativeOrNonFiniteReserve() {
    for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(
              () -> new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 0, true, bad, 256))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("kvReserveSteps");
    }
  }

  @Test
  void rejectsANegativeOrInfiniteDecodeValue() {
    assertThatThrownBy(
            () -> new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, -0.1, true, 10, 256))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("decodeValue");
    assertThatThrownBy(
            () ->
                new PredictedLatencyScorer(
                    256, 0.5, 2.0, 1.0, 1.0, Double.POSITIVE_INFINITY, true, 10, 256))
        .hasMessageContaining("decodeValue");
    assertThatThrownBy(() -> new PredictedLatencyScorer(256, 0.5, 2.0, 1.0, 1.0, 0, true, 10, -1))
        .hasMessage("maxRunningRequests: -1 (expected >= 0; 0 = no cap)");
  }

  @Test
  void deepQueueOnTheH100FlipsIt() {
    double[] s = score(List.of(on(FAST, 100, 0, 0), on(SLOW, 0, 0, 0)), NO_PREFIX, 1000);

    assertThat(s[1]).isEqualTo(1.0);
    assertThat(s[0]).isCloseTo(0.25 / 1.024, within(1e-9));
  }

  @Test
  void prefixHitLowersPredictedTtft() {
    // a 1024-token prompt is 64 blocks of 16 tokens; the first candidate holds the first 32
    long[] blocks = java.util.stream.LongStream.rangeClosed(1, 64).toArray();
    CycleState halfOnFirst = Fixtures.cycle(blocks, new int[] {32, 0});

    double[] s = score(List.of(on(FAST, 0, 0, 0), on(FAST, 0, 0, 0)), halfOnFirst, 1024);

    // 512 uncached tokens (512/32000 s) against 1024 (1024/32000 s).
    assertThat(s).containsExactly(new double[] {1.0, 0.5}, within(1e-9));
  }

  @Test
  void scoreIsFastestOverThis() {
    List<Candidate> c =
        List.of(on(FAST, 0, 0, 0), on(SLOW, 0, 0, 0), on(SLOW, 0, 0, 2000), on(MID, 0, 0, 0));
    double fastest = 1000.0 / 32000;

    double[] s = score(c, NO_PREFIX, 1000);

    assertThat(s)
        .containsExactly(
            new double[] {1.0, fastest / 0.25, fastest / 1.024, fastest / 0.1}, within(1e-9));
  }

  @Test
  void rejectsNegativeOrInfiniteMeanPromptTokens() {
    assertThatThrownBy(() -> new PredictedLatencyScorer(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("meanPromptTokens: -1.0 (expected a finite number >= 0)");
    assertThatThrownBy(() -> new PredictedLatencyScorer(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("meanPromptTokens: Infinity");
    assertThatThrownBy(() -> new PredictedLatencyScorer(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void cachedTokensNeverExceedThePromptOnLongPrompts() {
    // 256 hashed blocks (the hasher's cap) all held, but the prompt is 20,000 tokens long
    long[] blocks = java.util.stream.LongStream.rangeClosed(1, 256).toArray();
    CycleState allHeld = Fixtures.cycle(blocks, new int[] {256, 0});

    double[] s = score(List.of(on(FAST, 0, 0, 0), on(FAST, 0, 0, 0)), allHeld, 20_000);

    // the holder still prefills 20,000 - 4,096 tokens: the hit is worth about a fifth, not all
    assertThat(s[0]).isEqualTo(1.0);
    assertThat(s[1]).isGreaterThan(0.6).isLessThan(0.9);
  }

  @Test
  void aLearnedSlowdownMovesTrafficAway() {
    dev.pointsman.picker.scheduling.latency.LatencyModel model =
        new dev.pointsman.picker.scheduling.latency.LatencyModel();
    List<Candidate> c =
        List.of(
            Fixtures.candidate(
                "10.0.0.1:8000", "H100-80", Fixtures.metrics(0, 0, 0.0), InFlightTracker.Load.NONE),
            Fixtures.candidate(
                "10.0.0.2:8000",
                "H100-80",
                Fixtures.metrics(0, 0, 0.0),
                InFlightTracker.Load.NONE));
    for (int i = 0; i < 200; i++) {
      model.observe(c.get(0).address(), 0.05 + i * 0.001, 4 * (0.05 + i * 0.001));
    }
    CycleState learned = new CycleState(0, new long[0], model);
    double[] out = new double[2];
    new PredictedLatencyScorer().score(Fixtures.request(null, "", 1000), c, learned, out);
    assertThat(out[1]).isEqualTo(1.0);
    assertThat(out[0]).isLessThan(0.3);
    assertThat(learned.analyticTtft(0)).isEqualTo(learned.analyticTtft(1));
  }
}
