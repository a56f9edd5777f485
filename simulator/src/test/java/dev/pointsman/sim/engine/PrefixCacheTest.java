package dev.pointsman.sim.engine;

import static dev.pointsman.sim.engine.Harness.config;
import static dev.pointsman.sim.engine.Harness.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrefixCacheTest {
  private static final Segment SYSTEM = new Segment(77, 4000);

  private static SimRequest withSystemPrompt(long id, double at, String adapter) {
    return new SimRequest(id, at, List.of(SYSTEM, new Segment(id, 100)), 10, adapter, ~id);
  }

  @Test
  void sharedPrefixSkipsItsPrefillAndIsReportedAsCached() {
    // given two requests sharing a 4000-token system prompt, the second after the first finished
    Map<Long, RequestResult> r =
        run(config("A100-80"), List.of(withSystemPrompt(1, 0, ""), withSystemPrompt(2, 5000, "")));

    // then the second prefills only its own 100 tokens
    assertThat(r.get(1L).cachedTokens()).isZero();
    assertThat(r.get(2L).cachedTokens()).isEqualTo(4000);
    assertThat(r.get(2L).ttftMs()).isLessThan(r.get(1L).ttftMs() / 5);
  }

  @Test
  void prefixHitsAreCountedInTokens() {
    VirtualCluster c = new VirtualCluster(List.of(config("A100-80")), EngineListener.NONE);
    c.submit(withSystemPrompt(1, 0, ""), 0);
    c.runUntilIdle();
    c.submit(withSystemPrompt(2, c.now(), ""), 0);
    c.runUntilIdle();

    EngineCounters counters = c.snapshot(0).counters();
    assertThat(counters.prefixQueryTokens()).isEqualTo(2 * 4100);
    assertThat(counters.prefixHitTokens()).isEqualTo(4000);
  }

  @Test
  void theCachedPromptTokensAreWhatTheNextAdmissionReusesAndAskingChangesNothing() {
    VirtualCluster c = new VirtualCluster(List.of(config("A100-80")), EngineListener.NONE);
    Engine pod = c.pod(0);
    assertThat(pod.cachedPromptTokens(withSystemPrompt(2, 0, ""))).isZero();
    c.submit(withSystemPrompt(1, 0, ""), 0);
    c.runUntilIdle();
    SimRequest next = withSystemPrompt(2, c.now(), "");
    // the shared 4000-token system prompt is cached; another adapter's blocks are not shared
    assertThat(pod.cachedPromptTokens(next)).isEqualTo(4000);
    assertThat(pod.cachedPromptTokens(withSystemPrompt(3, c.now(), "x"))).isZero();
    long queriesBefore = c.snapshot(0).counters().prefixQueryTokens();
    assertThat(pod.cachedPromptTokens(next)).isEqualTo(4000);
    assertThat(c.snapshot(0).counters().prefixQueryTokens()).isEqualTo(queriesBefore);
    // and admission then reuses exactly that
    c.submit(next, 0);
    c.runUntilIdle();
    assertThat(c.snapshot(0).counters().prefixHitTokens()).isEqualTo(4000);
  }

  @Test
  void differentAdapterDoesNotShareTheBaseModelsBlocks() {
    Map<Long, RequestResult> r =
        run(config("A100-80"), List.of(withSystemPrompt(1, 0, ""), withSystemPrompt(2, 5000, "x")));

    assertThat(r.get(2L).cachedTokens()).isZero();
  }

  @Test
  void generatedTokensAreCachedForTheNextTurn() {
    // given turn 1 whose answer has content id 500, and turn 2 = turn 1 prompt + answer + question
    SimRequest turn1 = new SimRequest(1, 0, List.of(new Segment(9, 320)), 160, "", 500);
    SimRequest turn2 =
        new SimRequest(
            2,
            5000,
            List.of(new Segment(9, 320), new Segment(500, 160), new Segment(10, 50)),
            10,
            "",
            501);

    Map<Long, RequestResult> r = run(config("A100-80"), List.of(turn1, turn2));

    // then the prompt and all full blocks of the answer but the last-token block are reused
    assertThat(r.get(2L).cachedTokens()).isEqualTo(320 + 144);
  }

  @Test
  void freedBlocksAreEvictedLeastRecentlyUsedFirst() {
    // given a cache of 64 blocks (1024 tokens): fill it with A, then B, then C
    EngineConfig c = EngineConfig.of("p", "m", Harness.tiny(64)).withApiOverheadMs(0);
    SimRequest a = SimRequest.of(1, 0, List.of(new Segment(1, 480)), 1);
    SimRequest b = SimRequest.of(2, 1000, List.of(new Segment(2, 480)), 1);
    SimRequest reA = SimRequest.of(3, 2000, List.of(new Segment(1, 480)), 1);
    SimRequest cc = SimRequest.of(4, 3000, List.of(new Segment(3, 480)), 1);
    SimRequest reA2 = SimRequest.of(5, 4000, List.of(new Segment(1, 480)), 1);
    SimRequest reB = SimRequest.of(6, 5000, List.of(new Segment(2, 480)), 1);

    Map<Long, RequestResult> r = run(c, List.of(a, b, reA, cc, reA2, reB));

    // then re-reading A refreshed it, so C evicted B, not A
    assertThat(r.get(3L).cachedTokens()).isEqualTo(464);
    assertThat(r.get(5L).cachedTokens()).isEqualTo(464);
    assertThat(r.get(6L).cachedTokens()).isLessThan(464);
  }
}
