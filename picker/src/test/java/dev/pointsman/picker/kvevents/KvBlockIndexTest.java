package dev.pointsman.picker.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.kvevents.KvEvent.AllBlocksCleared;
import dev.pointsman.picker.kvevents.KvEvent.BlockRemoved;
import dev.pointsman.picker.kvevents.KvEvent.BlockStored;
import dev.pointsman.picker.scheduling.prefix.TokenBlockHasher;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class KvBlockIndexTest {
  private static final List<String> AB = List.of("a:1", "b:1");
  private static final int[] PROMPT = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

  private final KvBlockIndex index = new KvBlockIndex(1000);

  private int[] match(int[] tokens) {
    long[] keys = TokenBlockHasher.hash(null, tokens, 4, 100);
    return index.match(keys, a -> AB.indexOf(a), AB.size());
  }

  private static BlockStored stored(long[] hashes, Long parent, int from, int blocks) {
    int[] t = new int[blocks * 4];
    System.arraycopy(PROMPT, from, t, 0, t.length);
    return new BlockStored(hashes, parent, t, 4, null, "GPU");
  }

  @Test
  void matchesTheLeadingBlocksEachEndpointHoldsWhateverItsEngineHashes() {
    // a stores the three blocks in one event; b stores two in two events, under other hashes
    index.apply("a:1", List.of(stored(new long[] {1, 2, 3}, null, 0, 3)));
    index.apply(
        "b:1", List.of(stored(new long[] {70}, null, 0, 1), stored(new long[] {71}, 70L, 4, 1)));

    assertThat(match(PROMPT)).containsExactly(3, 2);
    assertThat(match(new int[] {1, 2, 3, 4, 0, 0, 0, 0})).containsExactly(1, 1);
    assertThat(match(new int[] {9, 9, 9, 9})).containsExactly(0, 0);
  }

  @Test
  void removalCountsReferencesAndBreaksTheChainWhereABlockWent() {
    index.apply("a:1", List.of(stored(new long[] {1, 2, 3}, null, 0, 3)));
    index.apply("a:1", List.of(stored(new long[] {2}, 1L, 4, 1))); // stored twice by the engine

    index.apply("a:1", List.of(new BlockRemoved(new long[] {2}, "GPU")));
    assertThat(match(PROMPT)).containsExactly(3, 0);

    index.apply("a:1", List.of(new BlockRemoved(new long[] {2}, null)));
    assertThat(match(PROMPT)).containsExactly(1, 0);
    assertThat(index.engineHashes("a:1")).containsExactly(1, 3);
  }

  @Test
  void aBlockWhoseParentWasJustEvictedIsStillKeyed() {
    index.apply("a:1", List.of(stored(new long[] {1, 2}, null, 0, 2)));
    index.apply("a:1", List.of(new BlockRemoved(new long[] {2}, null)));

    KvBlockIndex.Applied applied = index.apply("a:1", List.of(stored(new long[] {3}, 2L, 8, 1)));

    assertThat(applied.orphans()).isZero();
    assertThat(index.engineHashes("a:1")).containsExactly(1, 3);
  }

  @Test
  void aStoreUnderAnUnknownParentIsAnOrphanAndSkipped() {
    KvBlockIndex.Applied applied = index.apply("a:1", List.of(stored(new long[] {5}, 4L, 4, 1)));

    assertThat(applied.orphans()).isEqualTo(1);
    assertThat(index.size("a:1")).isZero();
  }

  private int[] offloaded(int[] tokens) {
    long[] keys = TokenBlockHasher.hash(null, tokens, 4, 100);
    return index.matchOffloaded(keys, index.match(keys, a -> AB.indexOf(a), 2), AB::indexOf);
  }

  /** A CPU-tier store as vLLM's offloading connector publishes it: hashes, no token ids. */
  private static BlockStored offloadedTo(long... hashes) {
    return new BlockStored(hashes, null, new int[0], 4, null, "CPU");
  }

  @Test
  void blocksOffloadedToCpuMemoryMatchAfterTheGpuRunAndOutliveTheirGpuCopy() {
    // a computed three blocks and offloaded them; then the GPU evicted the last two
    index.apply("a:1", List.of(stored(new long[] {1, 2, 3}, null, 0, 3), offloadedTo(1, 2, 3)));
    index.apply("a:1", List.of(new BlockRemoved(new long[] {2, 3}, "GPU")));

    assertThat(match(PROMPT)).containsExactly(1, 0);
    assertThat(offloaded(PROMPT)).containsExactly(2, 0);
    assertThat(index.engineHashes("a:1")).containsExactly(1, 2, 3);
    assertThat(index.size("a:1", true)).isEqualTo(1);
    assertThat(index.size("a:1", false)).isEqualTo(3);

    // the CPU tier drops the middle block: what follows it can no longer be loaded in a row
    index.apply("a:1", List.of(new BlockRemoved(new long[] {2}, "CPU")));
    assertThat(offloaded(PROMPT)).containsExactly(0, 0);
    assertThat(index.engineHashes("a:1")).containsExactly(1, 3);
    assertThat(index.size("a:1", false)).isEqualTo(2);
    // and the GPU loads block 2 back and stores it: it matches on the GPU again
    index.apply("a:1", List.of(stored(new long[] {2}, 1L, 4, 1)));
    assertThat(match(PROMPT)).containsExactly(2, 0);
    assertThat(offloaded(PROMPT)).containsExactly(1, 0);
  }

  @Test
  void aCpuStoreOfABlockNeverSeenIsAnOrphanAndOtherMediaAreIgnored() {
    KvBlockIndex.Applied orphan = index.apply("a:1", List.of(offloadedTo(9)));
    KvBlockIndex.Applied disk =
        index.apply(
            "a:1",
            List.of(
                new BlockStored(new long[] {1}, null, new int[] {1, 2, 3, 4}, 4, null, "DISK")));

    assertThat(orphan.orphans()).isEqualTo(1);
    assertThat(disk.ignored()).isEqualTo(1);
    assertThat(index.size("a:1")).isZero();
  }

  @Test
  void aBlockEvictedFromTheGpuBeforeItsCpuStoreArrivedIsStillKeyed() {
    index.apply("a:1", List.of(stored(new long[] {1, 2}, null, 0, 2)));
    index.apply("a:1", List.of(new BlockRemoved(new long[] {1, 2}, "GPU")));

    index.apply("a:1", List.of(offloadedTo(1, 2)));

    assertThat(match(PROMPT)).containsExactly(0, 0);
    assertThat(offloaded(PROMPT)).containsExactly(2, 0);
  }

  @Test
  void theBoundAndAClearForgetBothTiers() {
    KvBlockIndex small = new KvBlockIndex(2);
    small.apply("a:1", List.of(stored(new long[] {1, 2}, null, 0, 2), offloadedTo(1, 2)));
    small.apply("a:1", List.of(stored(new long[] {3}, 2L, 8, 1)));
    long[] keys = TokenBlockHasher.hash(null, PROMPT, 4, 100);

    // block 1 went, on both tiers: nothing leads any more
    assertThat(small.match(keys, AB::indexOf, 2)).containsExactly(0, 0);
    assertThat(small.matchOffloaded(keys, new int[] {0, 0}, AB::indexOf)).containsExactly(0, 0);
    assertThat(small.distinctBlocks()).isEqualTo(2);

    index.apply("b:1", List.of(stored(new long[] {1, 2}, null, 0, 2), offloadedTo(1, 2)));
    index.apply("b:1", List.of(new AllBlocksCleared()));
    assertThat(offloaded(PROMPT)).containsExactly(0, 0);
    assertThat(index.size("b:1")).isZero();
  }

  @Test
  void allBlocksClearedEmptiesOnlyThatEndpoint() {
    index.apply("a:1", List.of(stored(new long[] {1, 2, 3}, null, 0, 3)));
    index.apply("b:1", List.of(stored(new long[] {1, 2, 3}, null, 0, 3)));

    index.apply("a:1", List.of(new AllBlocksCleared()));

    assertThat(match(PROMPT)).containsExactly(0, 3);
    assertThat(index.size("a:1")).isZero();
  }

  @Test
  void adapterBlocksDoNotMatchBaseModelTokens() {
    index.apply(
        "a:1",
        List.of(
            new BlockStored(new long[] {1}, null, new int[] {1, 2, 3, 4}, 4, "sql-lora", null)));

    assertThat(match(PROMPT)).containsExactly(0, 0);
    long[] keys = TokenBlockHasher.hash("sql-lora", PROMPT, 4, 100);
    assertThat(index.match(keys, a -> AB.indexOf(a), 2)).containsExactly(1, 0);
  }

  @Test
  void staysWithinItsBoundForgettingTheOldestFirst() {
    KvBlockIndex small = new KvBlockIndex(2);

    KvBlockIndex.Applied applied =
        small.apply("a:1", List.of(stored(new long[] {1, 2, 3}, null, 0, 3)));

    assertThat(applied.overflows()).isEqualTo(1);
    assertThat(small.engineHashes("a:1")).containsExactly(2, 3);
    assertThat(small.distinctBlocks()).isEqualTo(2);
  }

  @Test
  void aTotalBoundIsSharedEquallyAndAnEndpointOverItsShareForgetsWhenAnotherJoins() {
    KvBlockIndex shared = new KvBlockIndex(1000, 4);
    long[] hashes = {1, 2, 3};

    shared.apply("a:1", List.of(stored(hashes, null, 0, 3)));
    assertThat(shared.size("a:1")).as("alone: up to the whole total").isEqualTo(3);

    KvBlockIndex.Applied b = shared.apply("b:1", List.of(stored(hashes, null, 0, 3)));
    assertThat(b.overflows()).as("two endpoints: two blocks each").isEqualTo(1);
    assertThat(shared.engineHashes("b:1")).containsExactly(2, 3);
    assertThat(shared.engineHashes("a:1")).as("trimmed as b joined").containsExactly(2, 3);
    assertThat(shared.blocks()).isEqualTo(4);
    assertThat(shared.distinctBlocks()).isEqualTo(2);

    shared.remove("b:1");
    shared.apply("a:1", List.of(stored(new long[] {1}, null, 0, 1)));
    assertThat(shared.size("a:1")).as("alone again: the whole total").isEqualTo(3);
  }

  @Test
  void concurrentWritersAndReadersLeaveAConsistentIndex() throws Exception {
    // given: 4 endpoints, each written by its own thread, read by 2 more
    int endpoints = 4;
    int rounds = 2000;
    KvBlockIndex shared = new KvBlockIndex(100_000);
    List<String> names = List.of("e0:1", "e1:1", "e2:1", "e3:1");
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int e = 0; e < endpoints; e++) {
      String name = names.get(e);
      threads.add(
          new Thread(
              () -> {
                await(start);
                for (int r = 0; r < rounds; r++) {
                  long h = r + 1;
                  shared.apply(
                      name,
                      List.of(
                          new BlockStored(
                              new long[] {h}, null, new int[] {r, r, r, r}, 4, null, null)));
                  if (r % 2 == 1) {
                    shared.apply(name, List.of(new BlockRemoved(new long[] {h}, null)));
                  }
                }
              }));
    }
    for (int reader = 0; reader < 2; reader++) {
      threads.add(
          new Thread(
              () -> {
                await(start);
                for (int r = 0; r < rounds; r++) {
                  int[] m =
                      shared.match(
                          TokenBlockHasher.hash(null, new int[] {r, r, r, r}, 4, 1),
                          names::indexOf,
                          endpoints);
                  for (int x : m) {
                    if (x < 0 || x > 1) {
                      failure.set(new AssertionError("match " + x));
                    }
                  }
                }
              }));
    }
    threads.forEach(t -> t.setUncaughtExceptionHandler((t2, ex) -> failure.set(ex)));
    threads.forEach(Thread::start);

    // when
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }

    // then: every endpoint holds exactly the even rounds' blocks, and every key names all four
    assertThat(failure.get()).isNull();
    for (String name : names) {
      assertThat(shared.size(name)).isEqualTo(rounds / 2);
    }
    assertThat(shared.distinctBlocks()).isEqualTo(rounds / 2);
    int[] m =
        shared.match(
            TokenBlockHasher.hash(null, new int[] {8, 8, 8, 8}, 4, 1), names::indexOf, endpoints);
    assertThat(m).containsExactly(1, 1, 1, 1);
    int[] odd =
        shared.match(
            TokenBlockHasher.hash(null, new int[] {9, 9, 9, 9}, 4, 1), names::indexOf, endpoints);
    assertThat(odd).containsExactly(0, 0, 0, 0);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
