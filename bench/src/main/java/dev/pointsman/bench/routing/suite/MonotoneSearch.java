package dev.pointsman.bench.routing.suite;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntPredicate;

/**
 * The smallest fleet size that passes, assuming that a larger fleet (nested: the same pods and
 * more, {@link FleetScaling}) never fails where a smaller one passes. Starts at the scenario's own
 * size; if that passes, bisects below it, else doubles until a size passes (or the upper limit
 * fails) and bisects between. Each size is run at most once. Where the assumption does not hold (a
 * policy that gets worse with more pods) it still returns a passing size, not necessarily the
 * smallest.
 */
final class MonotoneSearch {
  private MonotoneSearch() {}

  /**
   * The smallest passing size in {@code [min, max]}, starting at {@code start}; empty if {@code
   * max} fails.
   */
  static OptionalInt smallest(int min, int start, int max, IntPredicate passes) {
    if (min < 1 || max < min) {
      throw new IllegalArgumentException(
          "sizes: [" + min + ", " + max + "] (expected 1 <= min <= max)");
    }
    Map<Integer, Boolean> seen = new HashMap<>();
    IntPredicate once = n -> seen.computeIfAbsent(n, passes::test);
    int probe = Math.max(min, Math.min(max, start));
    int bad = min - 1;
    int good;
    if (once.test(probe)) {
      good = probe;
    } else {
      bad = probe;
      while (true) {
        if (probe == max) {
          return OptionalInt.empty();
        }
        probe = Math.min(max, probe * 2);
        if (once.test(probe)) {
          good = probe;
          break;
        }
        bad = probe;
      }
    }
    while (good - bad > 1) {
      int mid = bad + (good - bad) / 2;
      if (once.test(mid)) {
        good = mid;
      } else {
        bad = mid;
      }
    }
    return OptionalInt.of(good);
  }
}
