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

  @Test
  void blocksOffTheGpuAreIgnored() {
    KvBlockIndex.Applied applied =
        index.apply(
            "a:1",
            List.of(new BlockStored(new long[] {1}, null, new int[] {1, 2, 3, 4}, 4, null, "CPU")));

    assertThat(applied.ignored()).isEqualTo(1);
    assertThat(match(PROMPT)).containsExactly(0, 0);
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
