package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MaxScorePickerTest {
  private final MaxScorePicker picker = new MaxScorePicker();

  @ParameterizedTest(name = "totals [{0}], limit {1} -> [{2}]")
  @CsvSource({
    "0.1 0.9 0.5,      1,  1",
    "0.1 0.9 0.5,      3,  1 2 0",
    "0.1 0.9 0.5,      9,  1 2 0", // limit above n: every candidate once
    "0.1 0.9 0.5,      0,  1", // at least the primary
    "7,                1,  0",
    "3 1 4 1.5 9 2.6,  4,  4 2 0 5",
  })
  void picksTheMaxThenFallbacksInDescendingOrder(String totals, int limit, String expected) {
    int[] got = picker.pick(Tables.doubles(totals), limit, new SplittableRandom(1));

    assertThat(got).containsExactly(Tables.ints(expected));
  }

  @Test
  void tiesAreBrokenRandomlyAndRoughlyUniformly() {
    double[] totals = {5, 5, 5, 5, 4.5};
    int[] counts = new int[totals.length];
    SplittableRandom random = new SplittableRandom(42);

    for (int i = 0; i < 40_000; i++) {
      counts[picker.pick(totals, 1, random)[0]]++;
    }

    assertThat(counts[4]).isZero();
    for (int i = 0; i < 4; i++) {
      assertThat(counts[i]).as("count of %d", i).isBetween(9_000, 11_000);
    }
  }

  @Test
  void differencesBelowEpsilonAreTies() {
    double[] totals = {1.0, 1.0 + 1e-12};
    int[] counts = new int[2];
    SplittableRandom random = new SplittableRandom(3);

    for (int i = 0; i < 2_000; i++) {
      counts[picker.pick(totals, 1, random)[0]]++;
    }

    assertThat(counts[0]).isBetween(800, 1_200);
    assertThat(counts[1]).isBetween(800, 1_200);
  }

  @Test
  void fallbacksAreDistinctAndDescendingForRandomTotals() {
    SplittableRandom random = new SplittableRandom(9);
    for (int round = 0; round < 200; round++) {
      int n = 1 + random.nextInt(20);
      double[] totals = new double[n];
      for (int i = 0; i < n; i++) {
        totals[i] = random.nextInt(5); // many ties
      }
      int limit = 1 + random.nextInt(n);

      int[] got = picker.pick(totals, limit, random);

      assertThat(got).hasSize(limit).doesNotHaveDuplicates();
      double[] picked = Arrays.stream(got).mapToDouble(i -> totals[i]).toArray();
      for (int i = 1; i < picked.length; i++) {
        assertThat(picked[i]).isLessThanOrEqualTo(picked[i - 1]);
      }
      double max = Arrays.stream(totals).max().orElseThrow();
      assertThat(totals[got[0]]).isEqualTo(max);
      assertThat(IntStream.of(got).allMatch(i -> i >= 0 && i < n)).isTrue();
    }
  }
}
