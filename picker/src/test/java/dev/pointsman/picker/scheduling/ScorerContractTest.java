package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every scorer honours, run over every registered scorer type.
 *
 * <p>Empty candidate lists are not part of the contract: the scheduler returns {@code NoEndpoints}
 * before scoring when no candidate is left (see {@code
 * SchedulerTest#scorersNeverSeeAnEmptyCandidateList}), so scorers may assume at least one.
 */
class ScorerContractTest {
  private static final int CASES = 200;

  static Stream<String> scorerTypes() {
    return Plugins.SCORERS.stream().sorted();
  }

  private static Scorer build(String type) {
    return Plugins.scorer(PluginSpec.of(type, 1.0), "scorers[0]");
  }

  /** One seeded random decision: request, candidates and cycle state. */
  private record Case(SchedulingRequest request, List<Candidate> candidates, CycleState state) {
    static Case random(long seed) {
      SplittableRandom r = new SplittableRandom(seed);
      int n = 1 + r.nextInt(r.nextBoolean() ? 4 : 64);
      int blocks = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(256);
      String adapter = r.nextBoolean() ? null : String.valueOf((char) ('a' + r.nextInt(6)));
      SchedulingRequest request =
          Fixtures.request(adapter, Fixtures.text(r, r.nextInt(300)), r.nextInt(20_000));
      List<Candidate> candidates = Collections.unmodifiableList(Fixtures.randomCandidates(r, n));
      long[] promptBlocks = Fixtures.randomBlocks(r, blocks);
      CycleState state =
          switch (r.nextInt(5)) {
            case 0 -> new CycleState(0L, promptBlocks);
            // history: adapters live, loading and recently sent; learned prices and latency
            case 1, 2 ->
                Fixtures.learnedCycle(
                    r, candidates, promptBlocks, Fixtures.randomMatches(r, n, blocks));
            default -> Fixtures.cycle(promptBlocks, Fixtures.randomMatches(r, n, blocks));
          };
      return new Case(request, candidates, state);
    }

    double[] score(Scorer scorer) {
      double[] out = new double[candidates.size()];
      scorer.score(request, candidates, state, out);
      return out;
    }
  }

  @ParameterizedTest
  @MethodSource("scorerTypes")
  void scoresAreInZeroOneForRandomCandidateSets(String type) {
    Scorer scorer = build(type);
    for (long seed = 0; seed < CASES; seed++) {
      double[] scores = Case.random(seed).score(scorer);
      for (int i = 0; i < scores.length; i++) {
        assertThat(scores[i]).as("%s seed %d candidate %d", type, seed, i).isBetween(0.0, 1.0);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("scorerTypes")
  void singleCandidateGetsAScoreInZeroOne(String type) {
    Scorer scorer = build(type);
    for (long seed = 0; seed < CASES; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<Candidate> one = Fixtures.randomCandidates(r, 1);
      CycleState state = Fixtures.cycle(new long[] {1, 2, 3, 4}, new int[] {r.nextInt(5)});
      double[] out = new double[1];
      scorer.score(Fixtures.request(null, "", r.nextInt(5_000)), one, state, out);
      assertThat(out[0]).as("%s seed %d", type, seed).isBetween(0.0, 1.0);
    }
  }

  @ParameterizedTest
  @MethodSource("scorerTypes")
  void sameInputsGiveSameOutputs(String type) {
    Scorer scorer = build(type);
    Scorer other = build(type);
    for (long seed = 0; seed < CASES; seed++) {
      Case c = Case.random(seed);
      double[] first = c.score(scorer);
      assertThat(c.score(scorer)).as("seed %d", seed).containsExactly(first);
      assertThat(c.score(other)).as("fresh instance, seed %d", seed).containsExactly(first);
    }
  }

  @ParameterizedTest
  @MethodSource("scorerTypes")
  void doesNotMutateItsInputs(String type) {
    Scorer scorer = build(type);
    for (long seed = 0; seed < CASES; seed++) {
      Case c = Case.random(seed);
      List<Candidate> candidatesBefore = new ArrayList<>(c.candidates());
      long[] blocksBefore = c.state().promptBlocks().clone();
      int[] matches = c.state().prefixMatches();
      int[] matchesBefore = matches == null ? null : matches.clone();

      c.score(scorer); // the list is unmodifiable: an attempt to change it throws

      assertThat(c.candidates()).containsExactlyElementsOf(candidatesBefore);
      assertThat(c.state().promptBlocks()).containsExactly(blocksBefore);
      assertThat(c.state().prefixMatches()).isEqualTo(matchesBefore);
    }
  }

  @ParameterizedTest
  @MethodSource("scorerTypes")
  void sameScorerFromSeveralThreadsGivesTheSameResults(String type) throws Exception {
    Scorer scorer = build(type);
    List<double[]> expected = new ArrayList<>();
    for (long seed = 0; seed < CASES; seed++) {
      expected.add(Case.random(seed).score(scorer));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<double[]>>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        futures.add(
            pool.submit(
                () -> {
                  List<double[]> got = new ArrayList<>();
                  for (long seed = 0; seed < CASES; seed++) {
                    got.add(Case.random(seed).score(scorer));
                  }
                  return got;
                }));
      }
      for (Future<List<double[]>> f : futures) {
        List<double[]> got = f.get(1, TimeUnit.MINUTES);
        for (int i = 0; i < CASES; i++) {
          assertThat(got.get(i)).as("seed %d", i).containsExactly(expected.get(i));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
