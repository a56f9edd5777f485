package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SchedulerTest {
  private static final SchedulingPolicy DEFAULT = Plugins.build(PolicyConfig.defaults());

  private final InFlightTracker inFlight = new InFlightTracker();
  private final PrefixIndex index = new PrefixIndex(31_250);
  private final Scheduler scheduler =
      new Scheduler(index, inFlight, PrefixHasher.DEFAULT, () -> 0L);

  static EndpointState up(String address, EndpointMetrics m) {
    return new EndpointState(new Endpoint(address, "llama"), m, true);
  }

  static EndpointState up(String address, String gpu, String pool) {
    return new EndpointState(
        new Endpoint(address, pool, Map.of("gpu", gpu)), Fixtures.metrics(0, 0, 0.1), true);
  }

  static EndpointState down(String address) {
    return new EndpointState(new Endpoint(address, "llama"), EndpointMetrics.UNKNOWN, false);
  }

  static PoolSnapshot pool(EndpointState... states) {
    return new PoolSnapshot("llama", List.of(states));
  }

  static PoolSnapshot idlePool(int n) {
    List<EndpointState> states = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      states.add(up("10.0.0." + i + ":8000", Fixtures.metrics(0, 0, 0.1)));
    }
    return new PoolSnapshot("llama", states);
  }

  static SchedulingRequest request(
      String prefix, int tokens, boolean sheddable, Set<String> subset) {
    return new SchedulingRequest("r", Fixtures.MODEL, null, prefix, tokens, -1, sheddable, subset);
  }

  static SchedulingRequest request(String prefix) {
    return request(prefix, 1000, false, null);
  }

  private Decision schedule(SchedulingRequest r, PoolSnapshot p, long seed) {
    return scheduler.schedule(r, p, DEFAULT, new SplittableRandom(seed));
  }

  private Decision.Picked picked(SchedulingRequest r, PoolSnapshot p, long seed) {
    Decision d = schedule(r, p, seed);
    assertThat(d).isInstanceOf(Decision.Picked.class);
    return (Decision.Picked) d;
  }

  // --- no endpoints, subsets -------------------------------------------------------------------

  @Test
  void noEndpointsNamesThePool() {
    assertThat(schedule(request(""), PoolSnapshot.empty("llama"), 1))
        .isEqualTo(new Decision.NoEndpoints("no endpoints in pool llama"));
  }

  @Test
  void allUnavailableIsNoEndpoints() {
    assertThat(schedule(request(""), pool(down("10.0.0.1:8000"), down("10.0.0.2:8000")), 1))
        .isEqualTo(
            new Decision.NoEndpoints("no ready endpoint in pool llama (2 known, none ready)"));
  }

  @Test
  void unavailableEndpointsAreNeverPicked() {
    PoolSnapshot p =
        pool(
            down("10.0.0.1:8000"),
            up("10.0.0.2:8000", Fixtures.metrics(40, 200, 0.95)),
            down("10.0.0.3:8000"));
    for (long seed = 0; seed < 20; seed++) {
      assertThat(picked(request(""), p, seed).address()).isEqualTo("10.0.0.2:8000");
    }
  }

  @Test
  void subsetHintRestrictsTheCandidates() {
    Set<String> subset = Set.of("10.0.0.3:8000");
    for (long seed = 0; seed < 20; seed++) {
      Decision.Picked d = picked(request("", 100, false, subset), idlePool(4), seed);

      assertThat(d.address()).isEqualTo("10.0.0.3:8000");
      assertThat(d.explanation().candidates()).containsExactly("10.0.0.3:8000");
    }
  }

  @Test
  void emptySubsetIsNoEndpoints() {
    assertThat(schedule(request("", 100, false, Set.of()), idlePool(4), 1))
        .isEqualTo(
            new Decision.NoEndpoints(
                "no ready endpoint in the subset hint []",
                Decision.NoEndpoints.Cause.SUBSET_EMPTY));
  }

  @Test
  void aBareIpInTheSubsetAllowsEveryPortOfIt() {
    SchedulingRequest r = request("", 100, false, Set.of("10.0.0.3", "[fd00::1]", "fd00::2"));
    assertThat(r.allows("10.0.0.3:8000")).isTrue();
    assertThat(r.allows("10.0.0.3:9000")).isTrue();
    assertThat(r.allows("10.0.0.30:8000")).isFalse();
    assertThat(r.allows("[fd00::1]:8000")).isTrue();
    assertThat(r.allows("[fd00::2]:8000")).isTrue();
    assertThat(r.allows("[fd00::3]:8000")).isFalse();
    assertThat(request("", 100, false, Set.of("10.0.0.3:8000")).allows("10.0.0.3:9000")).isFalse();
  }

  @Test
  void subsetOfUnknownEndpointsIsNoEndpoints() {
    Decision d = schedule(request("", 100, false, Set.of("10.9.9.9:8000")), idlePool(4), 1);

    assertThat(d).isInstanceOf(Decision.NoEndpoints.class);
    assertThat(((Decision.NoEndpoints) d).reason()).contains("subset hint", "10.9.9.9:8000");
  }

  @Test
  void scorersNeverSeeAnEmptyCandidateList() {
    Filter dropAll =
        new Filter() {
          @Override
          public String type() {
            return "drop-all";
          }

          @Override
          public List<Candidate> filter(SchedulingRequest r, List<Candidate> c, CycleState s) {
            return List.of();
          }
        };
    List<Integer> seen = new ArrayList<>();
    Scorer spy =
        new Scorer() {
          @Override
          public String type() {
            return "spy";
          }

          @Override
          public void score(SchedulingRequest r, List<Candidate> c, CycleState s, double[] out) {
            seen.add(c.size());
          }
        };
    SchedulingPolicy policy =
        new SchedulingPolicy(
            List.of(dropAll),
            List.of(new WeightedScorer(spy, 1)),
            DEFAULT.picker(),
            0,
            Saturation.DEFAULT);

    Decision d = scheduler.schedule(request(""), idlePool(3), policy, new SplittableRandom(1));

    assertThat(d)
        .isEqualTo(
            new Decision.NoEndpoints(
                "no endpoint passed the drop-all", Decision.NoEndpoints.Cause.FILTERED));
    assertThat(seen).isEmpty();
    assertThat(inFlight.liveRequests()).isZero();
  }

  // --- saturation --------------------------------------------------------------------------------

  private static PoolSnapshot saturatedPool() {
    return pool(
        up("10.0.0.1:8000", Fixtures.metrics(10, 50, 0.3)), // queue over 5
        up("10.0.0.2:8000", Fixtures.metrics(0, 50, 0.9))); // KV over 0.8
  }

  @Test
  void sheddableRequestOnSaturatedPoolIsShed() {
    Decision d = schedule(request("", 100, true, null), saturatedPool(), 1);

    assertThat(d).isInstanceOf(Decision.Shed.class);
    assertThat(((Decision.Shed) d).reason()).contains("saturated");
    assertThat(((Decision.Shed) d).retryAfterSeconds()).isEqualTo(1);
    assertThat(inFlight.liveRequests()).isZero();
  }

  @Test
  void criticalRequestOnSaturatedPoolIsPicked() {
    assertThat(schedule(request("", 100, false, null), saturatedPool(), 1))
        .isInstanceOf(Decision.Picked.class);
  }

  @Test
  void sheddableRequestIsPickedWhileOneEndpointHasRoom() {
    PoolSnapshot p =
        pool(
            up("10.0.0.1:8000", Fixtures.metrics(10, 50, 0.3)),
            up("10.0.0.2:8000", Fixtures.metrics(4, 50, 0.79)));

    assertThat(picked(request("", 100, true, null), p, 1).address()).isEqualTo("10.0.0.2:8000");
  }

  @Test
  void picksSinceTheScrapeCountTowardsSaturation() {
    PoolSnapshot p = pool(up("10.0.0.1:8000", Fixtures.metrics(4, 50, 0.3)));

    picked(request("", 100, false, null), p, 1); // queue is now 4 scraped + 1 pending

    assertThat(schedule(request("", 100, true, null), p, 2)).isInstanceOf(Decision.Shed.class);
  }

  // --- accounting --------------------------------------------------------------------------------

  @Test
  void pickIsCountedInFlightAndTheTicketReleasesOnce() {
    Decision.Picked d = picked(request("", 1000, false, null), idlePool(2), 1);
    String a = d.address();

    assertThat(inFlight.load(a)).isEqualTo(new InFlightTracker.Load(1, 1000, 1, 1000, 1, 1000));
    assertThat(d.ticket().address()).isEqualTo(a);
    assertThat(d.ticket().release()).isTrue();
    assertThat(inFlight.load(a)).isEqualTo(new InFlightTracker.Load(0, 0, 0, 0, 0, 0));
    assertThat(d.ticket().release()).isFalse();
    assertThat(d.ticket().released()).isTrue();
    assertThat(inFlight.load(a)).isEqualTo(new InFlightTracker.Load(0, 0, 0, 0, 0, 0));
  }

  @Test
  void pickRecordsThePromptBlocksForTheChosenEndpoint() {
    String prompt = Fixtures.text(new SplittableRandom(1), 2048); // 32 blocks of 64 chars
    Decision.Picked d = picked(request(prompt), idlePool(3), 1);

    assertThat(index.size(d.address())).isEqualTo(32);
    long[] blocks = PrefixHasher.DEFAULT.hash(Fixtures.MODEL, prompt);
    assertThat(index.match(blocks, List.of(d.address()))).containsExactly(32);
  }

  // --- prefix affinity versus load
  // -----------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void samePrefixGoesBackToTheSameEndpointWhenLoadsAreEqual(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    String system = Fixtures.text(r, 2048);
    PoolSnapshot p = idlePool(4);
    Decision.Picked first = picked(request(system + Fixtures.text(r, 512)), p, seed);
    first.ticket().release();
    p.endpoints().forEach(e -> inFlight.onScrape(e.address()));

    Decision.Picked second = picked(request(system + Fixtures.text(r, 512)), p, seed + 100);

    assertThat(second.address()).isEqualTo(first.address());
    int chosen = second.explanation().chosen();
    int prefixRow = second.explanation().scorers().indexOf("prefix-cache-scorer");
    assertThat(second.explanation().scores()[prefixRow][chosen])
        .isCloseTo(0.8, within(1e-9)); // 32 of 40
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void affinityYieldsToLoad(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    String system = Fixtures.text(r, 2048);
    Decision.Picked first = picked(request(system + Fixtures.text(r, 512)), idlePool(4), seed);
    first.ticket().release();
    // The next scrape shows the endpoint holding the prefix is now heavily loaded.
    List<EndpointState> states = new ArrayList<>();
    for (EndpointState e : idlePool(4).endpoints()) {
      boolean hot = e.address().equals(first.address());
      states.add(hot ? up(e.address(), Fixtures.metrics(50, 120, 0.7)) : e);
      inFlight.onScrape(e.address());
    }

    Decision.Picked second =
        picked(
            request(system + Fixtures.text(r, 512)), new PoolSnapshot("llama", states), seed + 100);

    assertThat(second.address()).isNotEqualTo(first.address());
  }

  /**
   * Where the next prompt goes after {@code earlier} went to some endpoint of two, whose next
   * scrape shows {@code waiting} requests queued there and 90% KV use on both, under {@code
   * policy}. Returns whether it stayed.
   */
  private static boolean stays(
      String earlier, String next, int waiting, SchedulingPolicy policy, long seed) {
    return stays(earlier, next, 8, waiting, 0.9, policy, seed);
  }

  /**
   * Whether {@code next} goes where {@code earlier} went, once that endpoint runs {@code running}
   * sequences with {@code waiting} queued and the other is idle, both at {@code kv} KV-cache use.
   */
  private static boolean stays(
      String earlier,
      String next,
      int running,
      int waiting,
      double kv,
      SchedulingPolicy policy,
      long seed) {
    InFlightTracker tracker = new InFlightTracker();
    Scheduler s = new Scheduler(new PrefixIndex(31_250), tracker, PrefixHasher.DEFAULT, () -> 0L);
    PoolSnapshot cold =
        pool(
            up("10.0.0.1:8000", Fixtures.metrics(0, 0, kv)),
            up("10.0.0.2:8000", Fixtures.metrics(0, 0, kv)));
    Decision.Picked first =
        (Decision.Picked)
            s.schedule(
                request(earlier, earlier.length() / 4, false, null),
                cold,
                policy,
                new SplittableRandom(seed));
    first.ticket().release();
    List<EndpointState> states = new ArrayList<>();
    for (EndpointState e : cold.endpoints()) {
      boolean holder = e.address().equals(first.address());
      states.add(holder ? up(e.address(), Fixtures.metrics(waiting, running, kv)) : e);
      tracker.onScrape(e.address());
    }
    Decision.Picked second =
        (Decision.Picked)
            s.schedule(
                request(next, next.length() / 4, false, null),
                new PoolSnapshot("llama", states),
                policy,
                new SplittableRandom(seed + 100));
    return second.address().equals(first.address());
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void aConversationsNextTurnStaysWhereADocumentsNextQuestionMoves(long seed) {
    // the same holder, the same queue there, the same 6 KB cached: a conversation's next turn
    // continues the prompt sent there, a second question about a document branches off it
    SplittableRandom r = new SplittableRandom(seed);
    String history = Fixtures.text(r, 6_144);
    String turn = history + Fixtures.text(r, 256);
    String document = history + Fixtures.text(r, 256);
    String otherQuestion = history + Fixtures.text(r, 256);
    SchedulingPolicy flat = withLatencyParams(Map.of("privateCacheValue", 1));
    // 40 requests queued on the holder: worth recomputing 6 KB at the shared price, not at 8 times
    // it
    assertThat(stays(history, turn, 40, DEFAULT, seed)).as("the conversation stays").isTrue();
    assertThat(stays(history, turn, 40, flat, seed))
        .as("priced like a shared prefix, it moves")
        .isFalse();
    assertThat(stays(document, otherQuestion, 40, DEFAULT, seed))
        .as("a document's next question moves")
        .isFalse();
    // the price is dearer, not infinite: behind 320 the conversation moves too
    assertThat(stays(history, turn, 320, DEFAULT, seed)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void aDocumentsHolderWithEverySequenceSlotTakenLosesItsNextQuestion(long seed) {
    // a document's first question went to one endpoint; a second question about it follows. The
    // queue there is of questions about cached documents too: 16 uncached tokens each, as the
    // picker learns from what it sends (meanPromptTokens stands in for that here)
    SplittableRandom r = new SplittableRandom(seed);
    String document = Fixtures.text(r, 12_288);
    String asked = document + Fixtures.text(r, 256);
    String question = document + Fixtures.text(r, 256);
    SchedulingPolicy capped = withLatencyParams(Map.of("meanPromptTokens", 16));
    SchedulingPolicy noCap =
        withLatencyParams(Map.of("meanPromptTokens", 16, "maxRunningRequests", 0));
    // 200 running, 40 queued: every queued request finds a free slot, the cache wins
    assertThat(stays(asked, question, 200, 40, 0.3, capped, seed)).isTrue();
    // 256 running, the default cap: each queued request waits for a running one to finish
    assertThat(stays(asked, question, 256, 40, 0.3, capped, seed))
        .as("behind 40 at the cap, the question moves to the idle endpoint")
        .isFalse();
    assertThat(stays(asked, question, 256, 10, 0.3, capped, seed))
        .as("behind 10 the wait is short enough for the cache")
        .isTrue();
    assertThat(stays(asked, question, 256, 40, 0.3, noCap, seed))
        .as("with no cap assumed it stays behind the queue")
        .isTrue();
  }

  /** The default blend with the predicted-latency scorer's {@code params}. */
  private static SchedulingPolicy withLatencyParams(Map<String, Object> params) {
    return Plugins.build(
        new PolicyConfig(
            null,
            List.of(
                new PluginSpec("predicted-latency-scorer", 4.0, params),
                PluginSpec.of("lora-affinity-scorer", 2),
                PluginSpec.of("prefix-cache-scorer", 2),
                PluginSpec.of("kv-cache-utilization-scorer", 4)),
            null,
            null,
            null));
  }

  // --- bursts against one stale snapshot
  // -----------------------------------------------------------

  private Map<String, Integer> burst(PoolSnapshot p, List<SchedulingRequest> requests, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Map<String, Integer> counts = new HashMap<>();
    for (SchedulingRequest r : requests) {
      Decision.Picked d = (Decision.Picked) scheduler.schedule(r, p, DEFAULT, random);
      counts.merge(d.address(), 1, Integer::sum);
    }
    return counts;
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void burstOfDistinctPromptsSpreadsOverAllEndpoints(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<SchedulingRequest> requests = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      requests.add(request(Fixtures.text(r, 1024), 500, false, null));
    }

    Map<String, Integer> counts = burst(idlePool(4), requests, seed);

    assertThat(counts).hasSize(4);
    assertThat(counts.values()).allSatisfy(c -> assertThat(c).isLessThanOrEqualTo(25)); // 2 × mean
    // Without in-flight accounting this would be a random tie-break each time (a multinomial
    // spread); with it, each pick makes its endpoint look busier, so the spread is near-even.
    assertThat(counts.values()).allSatisfy(c -> assertThat(c).isBetween(11, 14));
    assertThat(inFlight.liveRequests()).isEqualTo(50);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void burstOfOneSharedPromptDoesNotHerdOntoItsCacheHolder(long seed) {
    String shared = Fixtures.text(new SplittableRandom(seed), 2048);
    List<SchedulingRequest> requests = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      requests.add(request(shared, 1000, false, null));
    }

    Map<String, Integer> counts = burst(idlePool(4), requests, seed);

    assertThat(counts).hasSize(4);
    assertThat(counts.values()).allSatisfy(c -> assertThat(c).isLessThanOrEqualTo(25));
  }

  // --- several pools
  // -------------------------------------------------------------------------------

  private static List<PoolSnapshot> h100AndL4(EndpointMetrics h100) {
    PoolSnapshot fast =
        new PoolSnapshot(
            "llama-h100",
            List.of(
                new EndpointState(
                    new Endpoint("10.1.0.1:8000", "llama-h100", Map.of("gpu", "H100-80")),
                    h100,
                    true),
                new EndpointState(
                    new Endpoint("10.1.0.2:8000", "llama-h100", Map.of("gpu", "H100-80")),
                    h100,
                    true)));
    PoolSnapshot slow =
        new PoolSnapshot(
            "llama-l4",
            List.of(up("10.2.0.1:8000", "L4", "llama-l4"), up("10.2.0.2:8000", "L4", "llama-l4")));
    return List.of(slow, fast);
  }

  @Test
  void idleH100PoolWinsOverIdleL4Pool() {
    List<PoolSnapshot> pools = h100AndL4(Fixtures.metrics(0, 0, 0.1));
    for (long seed = 0; seed < 20; seed++) {
      Decision d =
          scheduler.schedule(
              request("", 1000, false, null), pools, DEFAULT, new SplittableRandom(seed));

      assertThat(((Decision.Picked) d).address()).startsWith("10.1.");
      assertThat(((Decision.Picked) d).primary().profile().name()).isEqualTo("H100-SXM5-80GB");
      ((Decision.Picked) d).ticket().release();
    }
  }

  @Test
  void deeplyQueuedH100PoolLosesToIdleL4Pool() {
    List<PoolSnapshot> pools = h100AndL4(Fixtures.metrics(100, 0, 0.1));

    Decision d =
        scheduler.schedule(request("", 1000, false, null), pools, DEFAULT, new SplittableRandom(1));

    assertThat(((Decision.Picked) d).address()).startsWith("10.2.");
  }

  @Test
  void noEndpointsInAnyPoolNamesThemAll() {
    Decision d =
        scheduler.schedule(
            request(""),
            List.of(PoolSnapshot.empty("a"), PoolSnapshot.empty("b")),
            DEFAULT,
            new SplittableRandom(1));

    assertThat(d).isEqualTo(new Decision.NoEndpoints("no endpoints in pool a,b"));
  }

  // --- explanation and fallbacks
  // -------------------------------------------------------------------

  @Test
  void explanationHoldsEveryScorerAndWeightedTotals() {
    PoolSnapshot p =
        pool(
            up("10.0.0.1:8000", Fixtures.metrics(3, 10, 0.5)),
            up("10.0.0.2:8000", Fixtures.metrics(0, 40, 0.2)),
            up("10.0.0.3:8000", Fixtures.metrics(8, 0, 0.7)));

    Decision.Picked d = picked(request(Fixtures.text(new SplittableRandom(5), 700)), p, 1);
    Explanation why = d.explanation();

    assertThat(why.scorers())
        .containsExactly(
            "predicted-latency-scorer",
            "lora-affinity-scorer",
            "prefix-cache-scorer",
            "kv-cache-utilization-scorer");
    assertThat(why.weights()).containsExactly(4, 2, 2, 4);
    assertThat(why.candidates()).containsExactly("10.0.0.1:8000", "10.0.0.2:8000", "10.0.0.3:8000");
    assertThat(why.scores()).hasNumberOfRows(4);
    for (int c = 0; c < 3; c++) {
      double sum = 0;
      for (int s = 0; s < 4; s++) {
        assertThat(why.scores()[s][c]).isBetween(0.0, 1.0);
        sum += why.weights()[s] * why.scores()[s][c];
      }
      assertThat(why.totals()[c]).isCloseTo(sum, within(1e-12));
    }
    assertThat(why.candidates().get(why.chosen())).isEqualTo(d.address());
    assertThat(why.totals()[why.chosen()])
        .isEqualTo(Arrays.stream(why.totals()).max().orElseThrow());
    // nothing has been routed yet, so no endpoint holds any of this prompt's prefix
    assertThat(why.scores()[2]).containsExactly(new double[] {0.0, 0.0, 0.0}, within(1e-12));
    assertThat(why.scores()[3]).containsExactly(new double[] {0.5, 0.8, 0.3}, within(1e-12));
  }

  @Test
  void fallbacksFollowInDescendingTotalsAndExcludeThePrimary() {
    SchedulingPolicy policy = Plugins.build(new PolicyConfig(null, null, null, 2, null));
    PoolSnapshot p =
        pool(
            up("10.0.0.1:8000", Fixtures.metrics(9, 0, 0.5)),
            up("10.0.0.2:8000", Fixtures.metrics(0, 0, 0.1)),
            up("10.0.0.3:8000", Fixtures.metrics(3, 0, 0.3)),
            up("10.0.0.4:8000", Fixtures.metrics(20, 0, 0.7)));

    Decision.Picked d =
        (Decision.Picked)
            scheduler.schedule(request("", 500, false, null), p, policy, new SplittableRandom(1));

    assertThat(d.address()).isEqualTo("10.0.0.2:8000");
    assertThat(d.fallbacks())
        .extracting(Candidate::address)
        .containsExactly("10.0.0.3:8000", "10.0.0.1:8000");
    assertThat(inFlight.load("10.0.0.3:8000")).isEqualTo(InFlightTracker.Load.NONE);
  }

  @Test
  void loraRequestAvoidsAnEndpointWithoutRoomForTheAdapter() {
    PoolSnapshot p =
        pool(
            up("10.0.0.1:8000", Fixtures.lora(Set.of("b", "c"), Set.of(), 2)),
            up("10.0.0.2:8000", Fixtures.lora(Set.of("b"), Set.of(), 2)));
    SchedulingRequest r = new SchedulingRequest("r", "a", "a", "", 100, -1, false, null);

    for (long seed = 0; seed < 10; seed++) {
      Decision.Picked d = picked(r, p, seed);

      assertThat(d.address()).isEqualTo("10.0.0.2:8000");
      assertThat(d.explanation().candidates()).containsExactly("10.0.0.2:8000");
      d.ticket().release();
    }
  }

  /**
   * An endpoint that left the pools (a pod out for a restart) is forgotten whole: its cached
   * blocks, latency fit, adapters and queued work; the others keep theirs.
   */
  @Test
  void retainForgetsWhatWasLearnedOfEndpointsThatLeft() {
    long[] blocks = {11, 12, 13};
    for (String a : List.of("a:8000", "b:8000")) {
      scheduler.learnPick(a, blocks, "lora-1", 500);
      scheduler.latencyModel().observe(a, 0.1, 0.2);
    }

    scheduler.retain(List.of("b:8000"));

    assertThat(index.size("a:8000")).isZero();
    assertThat(scheduler.latencyModel().observations("a:8000")).isZero();
    assertThat(scheduler.adapterHistory().mostRecent("a:8000", 4)).isEmpty();
    assertThat(scheduler.queuedWork().export()).doesNotContainKey("a:8000");
    assertThat(index.size("b:8000")).isEqualTo(3);
    assertThat(scheduler.latencyModel().observations("b:8000")).isEqualTo(1);
    assertThat(scheduler.adapterHistory().mostRecent("b:8000", 4)).containsExactly("lora-1");
    assertThat(scheduler.queuedWork().export()).containsKey("b:8000");
  }
}
