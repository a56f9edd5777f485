package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OffloadTest {
  /** 64 GPU blocks of 16 tokens: two 480-token prompts do not fit at once with a third. */
  private static final GpuProfile TINY = Harness.tiny(64);

  private static EngineConfig tiny(KvOffload offload) {
    return EngineConfig.of("p", "m", TINY).withApiOverheadMs(0).withOffload(offload);
  }

  private static SimRequest prompt(long id, double at, long content) {
    return SimRequest.of(id, at, List.of(new Segment(content, 480)), 1);
  }

  /** A, then B and C (which evict A from the GPU), then A again. */
  private static List<SimRequest> evictThenReread() {
    return List.of(prompt(1, 0, 1), prompt(2, 1000, 2), prompt(3, 2000, 3), prompt(4, 3000, 1));
  }

  @Test
  void aPromptTheGpuEvictedIsLoadedFromTheCpuTierFasterThanItIsComputed() {
    Map<Long, RequestResult> without = Harness.run(tiny(KvOffload.NONE), evictThenReread());
    Map<Long, RequestResult> with =
        Harness.run(tiny(new KvOffload(1000, 0.001)), evictThenReread());

    // without a tier the GPU evicted most of A's blocks and A is mostly computed again
    assertThat(without.get(4L).cachedTokens()).isLessThan(100);
    // with one, all of A's full blocks but the one holding its last token come back
    assertThat(with.get(4L).cachedTokens()).isEqualTo(464);
    assertThat(with.get(4L).ttftMs()).isLessThan(without.get(4L).ttftMs());
  }

  @Test
  void theLoadCostsItsBytesOverTheLink() {
    Map<Long, RequestResult> fast =
        Harness.run(tiny(new KvOffload(1000, 0.001)), evictThenReread());
    Map<Long, RequestResult> slow = Harness.run(tiny(new KvOffload(1000, 1.0)), evictThenReread());

    // the GPU kept A's first 4 blocks (see below), so 400 tokens load: at 1 ms each against
    // 0.001 ms, the first token comes 399.6 ms later
    assertThat(slow.get(4L).ttftMs() - fast.get(4L).ttftMs()).isCloseTo(399.6, within(1e-6));
    assertThat(slow.get(4L).cachedTokens()).isEqualTo(464);
  }

  @Test
  void theCpuTierForgetsLeastRecentlyUsedFirstAndTellsItsListener() {
    // a tier of 60 blocks holds two 30-block prompts: A, B, then C pushes A out
    EngineConfig config = tiny(new KvOffload(60, 0.001));
    List<String> events = new ArrayList<>();
    VirtualCluster c = new VirtualCluster(List.of(config), EngineListener.NONE);
    c.pod(0)
        .listenToKvCache(
            new KvEventListener() {
              @Override
              public void offloaded(long parent, long hash, int blockSize) {
                events.add("+" + hash);
              }

              @Override
              public void offloadRemoved(long hash) {
                events.add("-" + hash);
              }
            });
    for (SimRequest r : evictThenReread()) {
      c.runUntil(r.arrivalMs());
      c.submit(r, 0);
      c.runUntilIdle();
    }

    long[] a = c.pod(0).promptBlockHashes(prompt(9, 0, 1));
    // A's first block went in first and was the first out when C came
    assertThat(events.get(0)).isEqualTo("+" + a[0]);
    assertThat(events).contains("-" + a[0]);
    assertThat(c.pod(0).offloadedBlocks()).isLessThanOrEqualTo(60);
    assertThat(events.stream().filter(e -> e.startsWith("+")).count())
        .isGreaterThan(events.stream().filter(e -> e.startsWith("-")).count());
  }

  @Test
  void theOffloadedTokensAreWhatAdmissionLoadsAndAskingChangesNothing() {
    VirtualCluster c =
        new VirtualCluster(List.of(tiny(new KvOffload(1000, 0.001))), EngineListener.NONE);
    Engine pod = c.pod(0);
    List<SimRequest> rs = evictThenReread();
    for (int i = 0; i < 3; i++) {
      c.runUntil(rs.get(i).arrivalMs());
      c.submit(rs.get(i), 0);
      c.runUntilIdle();
    }
    SimRequest again = rs.get(3);
    // B and C left A's first 4 blocks on the GPU; the CPU tier holds the 25 that follow
    assertThat(pod.cachedPromptTokens(again)).isEqualTo(64);
    assertThat(pod.offloadedPromptTokens(again)).isEqualTo(400);
    assertThat(pod.offloadedPromptTokens(again)).isEqualTo(400);
    assertThat(c.snapshot(0).counters().offloadHitTokens()).isZero();
    c.runUntil(again.arrivalMs());
    c.submit(again, 0);
    c.runUntilIdle();
    EngineCounters counters = c.snapshot(0).counters();
    assertThat(counters.offloadHitTokens()).isEqualTo(400);
    assertThat(counters.prefixHitTokens()).isEqualTo(64);
    // now back on the GPU, and counted there next time
    assertThat(pod.cachedPromptTokens(again)).isEqualTo(464);
    assertThat(pod.offloadedPromptTokens(again)).isZero();
  }

  @Test
  void aLookAheadCopyDoesNotChangeTheOriginalsTier() {
    VirtualCluster c =
        new VirtualCluster(List.of(tiny(new KvOffload(40, 0.001))), EngineListener.NONE);
    c.submit(prompt(1, 0, 1), 0);
    c.runUntilIdle();
    Engine copy = c.pod(0).copy(EngineListener.NONE);
    copy.submit(prompt(2, copy.now(), 2));
    while (copy.processNext()) {
      // run the copy to idle
    }
    // the copy's second prompt filled its own 40-block tier only
    assertThat(copy.offloadedBlocks()).isEqualTo(40);
    assertThat(c.pod(0).offloadedBlocks()).isEqualTo(30);
  }

  @Test
  void aTierIsSizedFromTheModelsKvBytesAndTheLinkSpeed() {
    ModelShape llama8b = Harness.PROFILES.model("llama-3-8b");
    // 128 KiB of KV per token: 1 GiB holds 8,192 tokens, 512 blocks of 16
    KvOffload tier = KvOffload.of(1, 25, llama8b, 16, 1);
    assertThat(tier.cpuBlocks()).isEqualTo(512);
    assertThat(tier.loadMsPerToken()).isCloseTo(131072 / 25e9 * 1000, within(1e-12));
    // two GPUs load their halves at once
    assertThat(KvOffload.of(1, 25, llama8b, 16, 2).loadMsPerToken())
        .isCloseTo(tier.loadMsPerToken() / 2, within(1e-12));
    assertThatThrownBy(() -> new KvOffload(-1, 0)).hasMessageContaining("cpuBlocks");
    assertThatThrownBy(() -> KvOffload.of(1, 0, llama8b, 16, 1)).hasMessageContaining("GB/s");
  }
}
