package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Fixtures;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KvCacheUtilizationScorerTest {

  @ParameterizedTest(name = "usage {0}, capacity {1}, pending tokens {2} -> {3}")
  @CsvSource({
    "0.25,  -1,     0,     0.75",
    "0.25,  -1,     5000,  0.75", // capacity unknown: pending tokens cannot be priced
    "0.25,  10000,  2500,  0.5",
    "0.9,   10000,  5000,  0.0", // pending tokens over capacity: clamped, not negative
    "0.0,   10000,  20000, 0.0",
    "NaN,   -1,     0,     1.0", // unknown usage counts as empty
    "NaN,   10000,  1000,  0.9",
    "1.2,   -1,     0,     0.0", // out-of-range scrape clamped
    "-0.1,  -1,     0,     1.0",
    "0.5,   0,      100,   0.5", // zero capacity is as good as unknown
    "1.0,   10000,  0,     0.0",
  })
  void oneMinusUsageIncludingPendingTokens(
      double usage, long capacity, long pendingTokens, double expected) {
    var c =
        Fixtures.candidate(
            "10.0.0.1:8000",
            null,
            Fixtures.kv(usage, capacity),
            Fixtures.pending(1, pendingTokens));
    double[] out = new double[1];

    new KvCacheUtilizationScorer()
        .score(Fixtures.request(null, "", 100), List.of(c), new CycleState(0, new long[0]), out);

    assertThat(out[0]).isCloseTo(expected, within(1e-9));
  }
}
