package dev.pointsman.bench.routing.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class MonotoneSearchTest {

  /** A fake runner: fleets of at least {@code needed} pods pass; records every size it ran. */
  private static final class Fake {
    final int needed;
    final List<Integer> ran = new ArrayList<>();

    Fake(int needed) {
      this.needed = needed;
    }

    boolean passes(int n) {
      ran.add(n);
      return n >= needed;
    }
  }

  @Test
  void findsTheSmallestPassingSizeFromAnyStartRunningEachSizeOnce() {
    // needed size, start (the scenario's own fleet), most runs allowed: below the start one run
    // plus bisecting [3, 8] (3 more); above it, one run, two doublings and bisecting 16 sizes (4)
    int[][] cases = {
      {3, 8, 4}, {8, 8, 4}, {5, 8, 4}, {9, 8, 7}, {16, 8, 7}, {17, 8, 7}, {31, 8, 7}, {32, 8, 7}
    };
    for (int[] c : cases) {
      Fake fake = new Fake(c[0]);
      OptionalInt found = MonotoneSearch.smallest(3, c[1], 32, fake::passes);
      assertThat(found).as("needed %d", c[0]).hasValue(c[0]);
      assertThat(fake.ran).as("runs for %d", c[0]).doesNotHaveDuplicates();
      assertThat(fake.ran.size()).as("runs for %d: %s", c[0], fake.ran).isLessThanOrEqualTo(c[2]);
      assertThat(fake.ran.get(0)).isEqualTo(c[1]);
    }
  }

  @Test
  void aboveTheStartItDoublesThenBisects() {
    Fake fake = new Fake(9);
    assertThat(MonotoneSearch.smallest(3, 8, 32, fake::passes)).hasValue(9);
    assertThat(fake.ran).containsExactly(8, 16, 12, 10, 9);
  }

  @Test
  void saysSoWhenEvenTheLargestFleetFails() {
    Fake fake = new Fake(100);
    assertThat(MonotoneSearch.smallest(3, 8, 32, fake::passes)).isEmpty();
    assertThat(fake.ran).containsExactly(8, 16, 32);
  }

  @Test
  void theStartIsClampedAndBadRangesAreNamed() {
    Fake fake = new Fake(2);
    assertThat(MonotoneSearch.smallest(2, 1, 5, fake::passes)).hasValue(2);
    assertThat(fake.ran).containsExactly(2);
    assertThatThrownBy(() -> MonotoneSearch.smallest(4, 4, 3, n -> true))
        .hasMessageContaining("sizes: [4, 3]");
  }
}
