package dev.pointsman.picker.scheduling.prefix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PrefixIndexTest {
  private static final String A = "10.0.0.1:8000";
  private static final String B = "10.0.0.2:8000";
  private static final String C = "10.0.0.3:8000";

  private static long[] blocks(long from, long to) {
    return LongStream.range(from, to).toArray();
  }

  @Test
  void matchCountsLeadingBlocksPerCandidate() {
    PrefixIndex index = new PrefixIndex(100);
    index.record(A, blocks(0, 10));
    index.record(B, blocks(0, 4));

    assertThat(index.match(blocks(0, 12), List.of(A, B, C))).containsExactly(10, 4, 0);
  }

  @Test
  void aPromptsLastBlockIsMarkedAsItsEndUntilItIsForgotten() {
    PrefixIndex index = new PrefixIndex(10);
    index.record(A, blocks(0, 4));
    index.record(A, blocks(0, 6)); // the next turn: block 3 was an end and stays one
    assertThat(index.endsPrompt(A, blocks(0, 4), 4)).isTrue();
    assertThat(index.endsPrompt(A, blocks(0, 6), 6)).isTrue();
    assertThat(index.endsPrompt(A, blocks(0, 3), 3)).as("inside a prompt").isFalse();
    assertThat(index.endsPrompt(B, blocks(0, 6), 6)).as("another endpoint").isFalse();

    // six more blocks: the bound of 10 forgets the least recent two, the longer turn's tail
    // (blocks 5 and 4: a prompt is touched last block first)
    index.record(A, blocks(100, 106));
    assertThat(index.size(A)).isEqualTo(10);
    assertThat(index.endsPrompt(A, blocks(100, 106), 6)).isTrue();
    assertThat(index.endsPrompt(A, blocks(0, 6), 6)).as("forgotten with its block").isFalse();
    assertThat(index.endsPrompt(A, blocks(0, 4), 4)).isTrue();

    index.limit(A, 6);
    assertThat(index.endsPrompt(A, blocks(0, 4), 4))
        .as("forgotten when the bound shrinks")
        .isFalse();

    PrefixIndex restored = new PrefixIndex(10);
    restored.restore(A, blocks(0, 4));
    assertThat(restored.endsPrompt(A, blocks(0, 4), 4)).as("a snapshot carries no ends").isFalse();
  }

  @Test
  void anEndpointRemembersNoMoreThanItsKvCacheHolds() {
    PrefixIndex index = new PrefixIndex(1_000);
    long[] old = java.util.stream.LongStream.rangeClosed(1, 60).toArray();
    long[] recent = java.util.stream.LongStream.rangeClosed(101, 140).toArray();
    index.record("a", old);
    index.record("a", recent);
    assertThat(index.size("a")).isEqualTo(100);

    index.limit("a", 50); // the server's cache holds 50 blocks: the oldest are gone there
    assertThat(index.size("a")).isEqualTo(50);
    assertThat(index.match(old, List.of("a"))).containsExactly(10); // its tail went first
    assertThat(index.match(recent, List.of("a"))).containsExactly(40);
    assertThat(index.distinctBlocks()).isEqualTo(50);

    index.record("a", old); // the bound holds for what comes next
    assertThat(index.size("a")).isEqualTo(50);
    index.limit("a", 5_000); // never above the index's own bound
    index.record("a", recent);
    assertThat(index.size("a")).isEqualTo(90); // the first 50 of the old prompt, and 40 more
    assertThat(index.match(old, List.of("a"))).containsExactly(50);
    index.limit("unknown", 1); // endpoints never recorded are left alone
    assertThat(index.size("unknown")).isZero();
  }

  @Test
  void matchCountsTheLongestLeadingRunOnly() {
    // a hole in a run is a state only prompt-order forgetting reaches (tails first, what an
    // endpoint holds of a chain of hashes is always a prefix of it)
    PrefixIndex index = new PrefixIndex(100, PrefixIndex.Forgetting.HEAD_FIRST);
    index.record(A, new long[] {0, 1, 3, 4, 5}); // holds blocks 0,1 and 3..5 but not 2
    index.record(B, new long[] {1, 2, 3}); // holds no block 0

    assertThat(index.match(blocks(0, 6), List.of(A, B))).containsExactly(2, 0);
  }

  @Test
  void endpointsNotAmongTheCandidatesAreIgnored() {
    PrefixIndex index = new PrefixIndex(100);
    index.record(A, blocks(0, 5));
    index.record(B, blocks(0, 3));

    assertThat(index.match(blocks(0, 5), List.of(B))).containsExactly(3);
    assertThat(index.match(blocks(0, 5), a -> a.equals(B) ? 0 : -1, 1)).containsExactly(3);
  }

  @Test
  void emptyBlocksAreNotRecordedAndMatchNothing() {
    PrefixIndex index = new PrefixIndex(100);
    index.record(A, new long[0]);

    assertThat(index.size(A)).isZero();
    assertThat(index.match(new long[0], List.of(A))).containsExactly(0);
  }

  @Test
  void lruBoundHoldsAndEvictedBlocksNoLongerMatch() {
    PrefixIndex index = new PrefixIndex(8);

    for (int i = 0; i < 10; i++) {
      index.record(A, blocks(i * 4, i * 4 + 4));
      assertThat(index.size(A)).isLessThanOrEqualTo(8);
    }

    assertThat(index.size(A)).isEqualTo(8);
    assertThat(index.match(blocks(0, 4), List.of(A))).containsExactly(0); // evicted
    assertThat(index.match(blocks(32, 40), List.of(A))).containsExactly(8); // most recent
    assertThat(index.distinctBlocks()).isEqualTo(8);
  }

  @Test
  void aPromptsTailIsForgottenBeforeItsPrefixAsAServerFreesIt() {
    PrefixIndex index = new PrefixIndex(10);
    index.record(A, blocks(0, 6));
    index.record(A, blocks(100, 106)); // two over the bound: the first prompt's last two blocks go

    assertThat(index.match(blocks(0, 6), List.of(A))).containsExactly(4);
    assertThat(index.match(blocks(100, 106), List.of(A))).containsExactly(6);

    index.record(B, blocks(0, 25)); // longer than the bound: its leading blocks are kept
    assertThat(index.match(blocks(0, 25), List.of(B))).containsExactly(10);
  }

  /**
   * The bisecting match against a walk over what each endpoint remembers ({@link
   * PrefixIndex#export}), through random prompts that share prefixes, small bounds that evict,
   * shrinking bounds and a late replica's restore.
   */
  @Test
  void theBisectingMatchCountsWhatAWalkOverTheRememberedBlocksCounts() {
    SplittableRandom random = new SplittableRandom(11);
    List<String> endpoints = List.of(A, B, C);
    for (int trial = 0; trial < 30; trial++) {
      PrefixIndex index = new PrefixIndex(5 + random.nextInt(60));
      List<long[]> prompts = new ArrayList<>();
      for (int step = 0; step < 200; step++) {
        long[] prompt = prompt(random, prompts);
        prompts.add(prompt);
        String e = endpoints.get(random.nextInt(endpoints.size()));
        if (random.nextInt(40) == 0) {
          index.limit(e, 3 + random.nextInt(30));
        }
        index.record(e, prompt);
        long[] probe = prompts.get(random.nextInt(prompts.size()));
        assertThat(index.match(probe, endpoints)).containsExactly(walk(index, probe, endpoints));
      }
      PrefixIndex late = new PrefixIndex(1_000);
      index.export().forEach(late::restore);
      for (long[] probe : prompts) {
        assertThat(late.match(probe, endpoints)).containsExactly(walk(index, probe, endpoints));
      }
    }
  }

  /** A prompt that extends a random earlier one's prefix (or none) with fresh blocks. */
  private static long[] prompt(SplittableRandom random, List<long[]> earlier) {
    long[] base = earlier.isEmpty() ? new long[0] : earlier.get(random.nextInt(earlier.size()));
    int kept = random.nextInt(base.length + 1);
    long[] out = java.util.Arrays.copyOf(base, kept + 1 + random.nextInt(12));
    for (int i = kept; i < out.length; i++) {
      out[i] = random.nextLong();
    }
    return out;
  }

  private static int[] walk(PrefixIndex index, long[] prompt, List<String> endpoints) {
    var remembered = index.export();
    int[] out = new int[endpoints.size()];
    for (int e = 0; e < endpoints.size(); e++) {
      java.util.Set<Long> held = new java.util.HashSet<>();
      for (long b : remembered.getOrDefault(endpoints.get(e), new long[0])) {
        held.add(b);
      }
      while (out[e] < prompt.length && held.contains(prompt[out[e]])) {
        out[e]++;
      }
    }
    return out;
  }

  @Test
  void inHeadFirstOrderAPromptLosesItsMatchWithItsFirstBlock() {
    PrefixIndex index = new PrefixIndex(10, PrefixIndex.Forgetting.HEAD_FIRST);
    index.record(A, blocks(0, 6));
    index.record(A, blocks(100, 106)); // two over the bound: blocks 0 and 1 go

    assertThat(index.match(blocks(0, 6), List.of(A))).containsExactly(0);
    assertThat(index.size(A)).isEqualTo(10);
  }

  @Test
  void aRestoredExportRebuildsTheSameRecency() {
    PrefixIndex index = new PrefixIndex(10);
    index.record(A, blocks(0, 4));
    index.record(A, blocks(100, 104));
    index.record(A, blocks(0, 2)); // the first prompt's head is the most recent now
    PrefixIndex late = new PrefixIndex(10);
    index.export().forEach(late::restore);
    assertThat(late.export().get(A)).containsExactly(index.export().get(A));

    for (PrefixIndex i : List.of(index, late)) {
      i.record(A, blocks(200, 205)); // five more: both forget blocks 3, 2 and 103
      assertThat(i.match(blocks(0, 4), List.of(A))).containsExactly(2);
      assertThat(i.match(blocks(100, 104), List.of(A))).containsExactly(3);
    }
  }

  @Test
  void recentlyMatchedBlocksAreRefreshedByRecord() {
    PrefixIndex index = new PrefixIndex(8);
    index.record(A, blocks(0, 4));
    index.record(A, blocks(100, 104));
    index.record(A, blocks(0, 4)); // sent again: most recent now

    index.record(A, blocks(200, 204)); // evicts 100..103, not 0..3

    assertThat(index.match(blocks(0, 4), List.of(A))).containsExactly(4);
    assertThat(index.match(blocks(100, 104), List.of(A))).containsExactly(0);
  }

  @Test
  void evictionOnOneEndpointKeepsOtherHolders() {
    PrefixIndex index = new PrefixIndex(4);
    index.record(A, blocks(0, 4));
    index.record(B, blocks(0, 4));

    index.record(A, blocks(10, 14));

    assertThat(index.match(blocks(0, 4), List.of(A, B))).containsExactly(0, 4);
  }

  @Test
  void retainRemovesEndpoints() {
    PrefixIndex index = new PrefixIndex(100);
    index.record(A, blocks(0, 5));
    index.record(B, blocks(0, 5));
    index.record(C, blocks(50, 60));

    index.retain(List.of(B));

    assertThat(index.size(A)).isZero();
    assertThat(index.size(C)).isZero();
    assertThat(index.match(blocks(0, 5), List.of(A, B))).containsExactly(0, 5);
    assertThat(index.distinctBlocks()).isEqualTo(5);
  }

  @Test
  void aTotalBoundGivesEveryEndpointTheSameShareOfItsOwn() {
    PrefixIndex index = new PrefixIndex(100, PrefixIndex.Forgetting.TAIL_FIRST, 150);
    List<String> changes = new ArrayList<>();
    index.budgetListener((binding, wanted, max) -> changes.add(binding + " " + wanted + "/" + max));
    index.record(A, blocks(0, 100));
    assertThat(index.size(A)).as("100 of 150: its own bound").isEqualTo(100);

    index.record(B, blocks(1_000, 1_100)); // 200 wanted, 150 in all: three quarters each
    assertThat(index.size(A)).isEqualTo(75);
    assertThat(index.size(B)).isEqualTo(75);
    assertThat(index.blocks()).isEqualTo(150);
    assertThat(index.wantedBlocks()).isEqualTo(200);
    assertThat(index.match(blocks(0, 100), List.of(A)))
        .as("what A keeps is its most recent: the prompt's head, its tail forgotten first")
        .containsExactly(75);
    assertThat(index.distinctBlocks()).isEqualTo(150);

    index.limit(B, 20); // B's KV cache holds 20 blocks: 120 wanted, within the bound again
    assertThat(index.size(B)).isEqualTo(20);
    index.record(A, blocks(0, 100));
    assertThat(index.size(A)).as("back to its own bound").isEqualTo(100);

    index.limit(B, 100);
    index.record(C, blocks(2_000, 2_100)); // 300 wanted: half of each one's own
    assertThat(index.size(A)).isEqualTo(50);
    assertThat(index.size(B)).isEqualTo(20);
    assertThat(index.size(C)).isEqualTo(50);
    index.record(B, blocks(3_000, 3_100));
    assertThat(index.size(B)).isEqualTo(50);
    assertThat(index.blocks()).isEqualTo(150);

    index.forget(C); // 200 wanted
    index.record(A, blocks(0, 100));
    assertThat(index.size(A)).isEqualTo(75);
    index.retain(List.of(A)); // 100 wanted
    index.record(A, blocks(0, 100));
    assertThat(index.size(A)).isEqualTo(100);
    assertThat(index.distinctBlocks()).isEqualTo(100);

    assertThat(changes)
        .as("told each time the bound starts or stops binding, and only then")
        .containsExactly("true 200/150", "false 120/150", "true 200/150", "false 100/150");
  }

  @Test
  void withoutATotalBoundEveryEndpointKeepsItsOwn() {
    PrefixIndex index = new PrefixIndex(100);
    for (int e = 0; e < 50; e++) {
      index.record("10.0.2." + e + ":8000", blocks(e * 1_000L, e * 1_000L + 100));
    }
    assertThat(index.blocks()).isEqualTo(5_000);
    assertThat(index.wantedBlocks()).isEqualTo(5_000);
    assertThat(index.maxBlocks()).isEqualTo(PrefixIndex.UNBOUNDED);
  }

  @Test
  void rejectsANonPositiveTotalBound() {
    assertThatThrownBy(() -> new PrefixIndex(10, PrefixIndex.Forgetting.TAIL_FIRST, 0))
        .hasMessage("maxBlocks: 0 (expected >= 1)");
  }

  @Test
  void concurrentRecordsLimitsAndForgettingKeepTheTotalBoundAndNoStaleHolder() throws Exception {
    int maxBlocks = 200;
    PrefixIndex index = new PrefixIndex(64, PrefixIndex.Forgetting.TAIL_FIRST, maxBlocks);
    List<String> endpoints = endpoints("10.0.3.");
    inSixThreads(
        100,
        r -> {
          String e = endpoints.get(r.nextInt(endpoints.size()));
          long from = r.nextInt(300);
          long[] b = blocks(from, from + 1 + r.nextInt(40));
          switch (r.nextInt(20)) {
            case 0 -> index.forget(e);
            case 1, 2 -> index.limit(e, 8 + r.nextInt(80));
            case 3, 4, 5, 6, 7 -> matchInRange(index, b, endpoints);
            default -> index.record(e, b);
          }
        });

    assertThat(index.blocks()).isLessThanOrEqualTo(maxBlocks);
    java.util.Set<Long> remembered = new java.util.HashSet<>();
    for (var entry : index.export().entrySet()) {
      assertThat(entry.getValue().length).isLessThanOrEqualTo(64);
      for (long block : entry.getValue()) {
        remembered.add(block);
        assertThat(index.match(new long[] {block}, List.of(entry.getKey())))
            .as("a remembered block has its holder")
            .containsExactly(1);
      }
    }
    assertThat(index.distinctBlocks())
        .as("no block is held for an endpoint that no longer remembers it")
        .isEqualTo(remembered.size());
  }

  private static List<String> endpoints(String prefix) {
    List<String> endpoints = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      endpoints.add(prefix + i + ":8000");
    }
    return endpoints;
  }

  private static void matchInRange(PrefixIndex index, long[] blocks, List<String> endpoints) {
    for (int m : index.match(blocks, endpoints)) {
      if (m < 0 || m > blocks.length) {
        throw new AssertionError("match out of range: " + m);
      }
    }
  }

  /** Six threads started together, each doing 5,000 steps with its own seeded random. */
  private static void inSixThreads(
      long seedBase, java.util.function.Consumer<SplittableRandom> step) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(6);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        SplittableRandom r = new SplittableRandom(seedBase + t);
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < 5_000; i++) {
                    step.accept(r);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rejectsZeroCapacity() {
    assertThatThrownBy(() -> new PrefixIndex(0))
        .hasMessage("capacityPerEndpoint: 0 (expected >= 1)");
  }

  @Test
  void concurrentRecordAndMatchKeepBounds() throws Exception {
    int capacity = 64;
    PrefixIndex index = new PrefixIndex(capacity);
    List<String> endpoints = endpoints("10.0.1.");
    inSixThreads(
        0,
        r -> {
          long from = r.nextInt(200);
          long[] b = blocks(from, from + 1 + r.nextInt(40));
          if (r.nextBoolean()) {
            index.record(endpoints.get(r.nextInt(endpoints.size())), b);
          } else {
            matchInRange(index, b, endpoints);
          }
          if (r.nextInt(500) == 0) {
            index.retain(endpoints);
          }
          for (String e : endpoints) {
            if (index.size(e) > capacity) {
              throw new AssertionError(e + " holds " + index.size(e));
            }
          }
        });

    int total = 0;
    for (String e : endpoints) {
      assertThat(index.size(e)).isLessThanOrEqualTo(capacity);
      total += index.size(e);
    }
    assertThat(index.distinctBlocks()).isLessThanOrEqualTo(total);
  }

  // ---- kept by checkpoints

  private static final PrefixIndex.Checkpoints SPARSE = new PrefixIndex.Checkpoints(8, 4);

  @Test
  void checkpointsKeepTheHeadEveryStrideAndTheLastAndWeighTheGapsBetween() {
    for (int n = 1; n < 200; n++) {
      int kept = SPARSE.kept(n);
      int previous = -1;
      long weights = 0;
      for (int j = 0; j < kept; j++) {
        int p = SPARSE.position(j, n);
        assertThat(p).as("n=%d j=%d", n, j).isGreaterThan(previous).isLessThan(n);
        assertThat(SPARSE.weight(p)).as("n=%d p=%d", n, p).isEqualTo(p - previous);
        if (p < 8) {
          assertThat(p).as("the head, every block").isEqualTo(j);
        } else if (j < kept - 1) {
          assertThat((p - 7) % 4).as("a checkpoint, n=%d p=%d", n, p).isZero();
        }
        weights += SPARSE.weight(p);
        previous = p;
      }
      assertThat(previous).as("the last block is kept").isEqualTo(n - 1);
      assertThat(weights).as("kept blocks stand for all of them").isEqualTo(n);
      assertThat(kept).isLessThanOrEqualTo(Math.min(n, 8 + (n - 8 + 3) / 4));
    }
  }

  @Test
  void checkpointsMatchTheEveryBlockIndexToTheLastCheckpointItHolds() {
    SplittableRandom random = new SplittableRandom(7);
    PrefixIndex every = new PrefixIndex(10_000_000); // no bound reached: nothing forgotten
    PrefixIndex sparse =
        new PrefixIndex(
            10_000_000, PrefixIndex.Forgetting.TAIL_FIRST, PrefixIndex.UNBOUNDED, SPARSE);
    List<String> endpoints = List.of(A, B, C);
    List<java.util.Set<Long>> endedAt = // each endpoint's recorded prompts, by their last block
        List.of(new java.util.HashSet<>(), new java.util.HashSet<>(), new java.util.HashSet<>());
    List<long[]> seen = new ArrayList<>(List.of(new SplittableRandom(3).longs(120).toArray()));
    for (int round = 0; round < 2_000; round++) {
      long[] prompt = branch(seen.get(random.nextInt(seen.size())), random);
      seen.add(prompt);
      if (random.nextInt(3) > 0) {
        int e = random.nextInt(3);
        every.record(endpoints.get(e), prompt);
        sparse.record(endpoints.get(e), prompt);
        endedAt.get(e).add(key(prompt, prompt.length));
      }
      int[] told = sparse.match(prompt, endpoints);
      int[] truth = every.match(prompt, endpoints);
      for (int i = 0; i < 3; i++) {
        int m = told[i];
        assertThat(m).as("round %d", round).isLessThanOrEqualTo(truth[i]);
        if (truth[i] <= 8 || endedAt.get(i).contains(key(prompt, truth[i]))) {
          assertThat(m)
              .as("round %d: the head is kept whole, and where a prompt ended", round)
              .isEqualTo(truth[i]);
        } else {
          assertThat(truth[i] - m).as("round %d: short of the truth", round).isLessThan(4);
        }
        assertThat(m == 0 || m <= 8 || (m - 8) % 4 == 0 || endedAt.get(i).contains(key(prompt, m)))
            .as("told to a checkpoint or a recorded prompt's end: %d of %d", m, prompt.length)
            .isTrue();
      }
    }
  }

  /** The block {@code length} blocks into {@code prompt}, or none. */
  private static long key(long[] prompt, int length) {
    return length == 0 ? Long.MIN_VALUE : prompt[length - 1];
  }

  /**
   * A prompt that shares a random part of {@code from}, then goes its own way with blocks no other
   * prompt has (a block stands for its whole prefix, as a chained hash does).
   */
  private static long[] branch(long[] from, SplittableRandom random) {
    int shared = random.nextInt(from.length + 1);
    long[] out = new long[Math.max(1, shared + random.nextInt(40))];
    System.arraycopy(from, 0, out, 0, Math.min(shared, out.length));
    for (int i = shared; i < out.length; i++) {
      out[i] = random.nextLong();
    }
    return out;
  }

  @Test
  void checkpointsBoundWhatKeptBlocksStandFor() {
    PrefixIndex index =
        new PrefixIndex(1_000, PrefixIndex.Forgetting.TAIL_FIRST, PrefixIndex.UNBOUNDED, SPARSE);
    long[] prompt = new SplittableRandom(1).longs(103).toArray();
    index.record(A, prompt);
    assertThat(index.size(A)).isEqualTo(103);
    assertThat(index.export().get(A)).hasSize(SPARSE.kept(103));
    assertThat(index.keys()).isEqualTo(SPARSE.kept(103));
    assertThat(index.distinctBlocks()).isEqualTo(SPARSE.kept(103));

    index.limit(A, 50); // its tail goes first: what stays is a prefix of at most 50 blocks
    assertThat(index.size(A)).isLessThanOrEqualTo(50).isGreaterThan(50 - 4);
    int held = index.match(prompt, List.of(A))[0];
    assertThat(held).isEqualTo(index.size(A));

    PrefixIndex restored =
        new PrefixIndex(1_000, PrefixIndex.Forgetting.TAIL_FIRST, PrefixIndex.UNBOUNDED, SPARSE);
    index.export().forEach(restored::restore);
    assertThat(restored.size(A)).isEqualTo(index.size(A));
    assertThat(restored.match(prompt, List.of(A))).containsExactly(held);
  }

  @Test
  void checkpointsTellTheNextTurnOfAConversationFromABranch() {
    PrefixIndex index =
        new PrefixIndex(1_000, PrefixIndex.Forgetting.TAIL_FIRST, PrefixIndex.UNBOUNDED, SPARSE);
    long[] turn = new SplittableRandom(2).longs(30).toArray(); // ends between checkpoints 27, 31
    index.record(A, turn);
    long[] next = java.util.Arrays.copyOf(turn, 45);
    for (int i = 30; i < 45; i++) {
      next[i] = 1_000 + i;
    }
    int depth = index.match(next, List.of(A))[0];
    assertThat(depth).as("past the last checkpoint, to the turn's end").isEqualTo(30);
    assertThat(index.endsPrompt(A, next, depth)).isTrue();
    assertThat(index.endsPrompt(A, next, 28)).as("the checkpoint before it").isFalse();

    long[] branch = java.util.Arrays.copyOf(turn, 40);
    for (int i = 20; i < 40; i++) {
      branch[i] = 2_000 + i;
    }
    depth = index.match(branch, List.of(A))[0];
    assertThat(depth).isEqualTo(20);
    assertThat(index.endsPrompt(A, branch, depth)).as("a branch off the middle").isFalse();
  }

  @Test
  void checkpointsNeedTailsForgottenFirst() {
    assertThatThrownBy(
            () ->
                new PrefixIndex(
                    10, PrefixIndex.Forgetting.HEAD_FIRST, PrefixIndex.UNBOUNDED, SPARSE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tail forgotten first");
    assertThat(new PrefixIndex.Checkpoints(8, 1)).isEqualTo(PrefixIndex.Checkpoints.EVERY_BLOCK);
    assertThatThrownBy(() -> new PrefixIndex.Checkpoints(8, 17))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stride");
  }
}
