package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrefixCacheScorerTest {

  private static List<Candidate> candidates(int n) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Fixtures.candidate("10.0.0." + i + ":8000", Fixtures.metrics(0, 0, 0)));
    }
    return out;
  }

  @ParameterizedTest(name = "{0} prompt blocks, matches [{1}] -> [{2}]")
  @CsvSource({
    "4,    0 1 4 2,   0 0.25 1 0.5",
    "1,    1 0,       1 0",
    "256,  256 64 3,  1 0.25 0.01171875",
    "3,    0 0 0,     0 0 0",
  })
  void matchedBlocksOverPromptBlocks(int blocks, String matches, String expected) {
    int[] m = Tables.ints(matches);
    double[] out = new double[m.length];

    new PrefixCacheScorer()
        .score(
            Fixtures.request(null, "", 100),
            candidates(m.length),
            Fixtures.cycle(new long[blocks], m),
            out);

    assertThat(out).containsExactly(Tables.doubles(expected), within(1e-12));
  }

  @Test
  void promptShorterThanOneBlockScoresZeroEverywhere() {
    double[] out = {-1, -1};

    new PrefixCacheScorer()
        .score(
            Fixtures.request(null, "hi", 1),
            candidates(2),
            Fixtures.cycle(new long[0], new int[2]),
            out);

    assertThat(out).containsExactly(0.0, 0.0);
  }

  @Test
  void matchesNotComputedScoreZero() {
    double[] out = {-1, -1};

    new PrefixCacheScorer()
        .score(
            Fixtures.request(null, "", 1),
            candidates(2),
            new CycleState(0, new long[] {1, 2}),
            out);

    assertThat(out).containsExactly(0.0, 0.0);
  }
}
