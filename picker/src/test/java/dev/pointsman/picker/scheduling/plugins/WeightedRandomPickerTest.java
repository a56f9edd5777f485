package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scheduling.PluginSpec;
import dev.pointsman.picker.scheduling.Plugins;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WeightedRandomPickerTest {
  private static final int DRAWS = 30_000;

  private static int[] primaryCounts(WeightedRandomPicker picker, double[] totals, long seed) {
    int[] counts = new int[totals.length];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < DRAWS; i++) {
      counts[picker.pick(totals, 1, random)[0]]++;
    }
    return counts;
  }

  @Test
  void onlyPicksAmongTheTopK() {
    int[] counts =
        primaryCounts(new WeightedRandomPicker(2, 0.5), new double[] {1, 5, 0.5, 4.9, 4.8}, 1);

    assertThat(counts[0] + counts[2] + counts[4]).isZero();
    assertThat(counts[1]).isPositive();
    assertThat(counts[3]).isPositive();
  }

  @Test
  void prefersHigherTotals() {
    // exp(-2) ≈ 0.135: the better one should win about 88% of the draws.
    int[] counts = primaryCounts(new WeightedRandomPicker(2, 0.5), new double[] {1.0, 2.0}, 2);

    assertThat((double) counts[1] / DRAWS).isBetween(0.84, 0.92);
  }

  @Test
  void spreadsOverNearEqualTotals() {
    int[] counts =
        primaryCounts(new WeightedRandomPicker(3, 0.5), new double[] {3.0, 2.999, 2.998, 0}, 3);

    for (int i = 0; i < 3; i++) {
      assertThat((double) counts[i] / DRAWS).as("share of %d", i).isBetween(0.28, 0.39);
    }
    assertThat(counts[3]).isZero();
  }

  @Test
  void fallbacksAreDistinctAndExcludeThePrimary() {
    WeightedRandomPicker picker = new WeightedRandomPicker(3, 1.0);
    SplittableRandom random = new SplittableRandom(4);
    double[] totals = {0.2, 0.9, 0.8, 0.85, 0.1};
    for (int i = 0; i < 500; i++) {
      int[] got = picker.pick(totals, 5, random);

      assertThat(got).hasSize(5).doesNotHaveDuplicates().containsExactlyInAnyOrder(0, 1, 2, 3, 4);
      assertThat(got[0]).isIn(1, 2, 3);
    }
  }

  @Test
  void limitBeyondCandidatesReturnsEachOnce() {
    int[] got =
        new WeightedRandomPicker(3, 0.5).pick(new double[] {1, 2}, 10, new SplittableRandom(5));

    assertThat(got).containsExactlyInAnyOrder(0, 1);
  }

  @ParameterizedTest(name = "topK {0}, temperature {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0  | 0.5 | picker.topK: 0 (expected >= 1)",
        "-3 | 0.5 | picker.topK: -3 (expected >= 1)",
        "3  | 0   | picker.temperature: 0.0 (expected > 0)",
        "3  | -1  | picker.temperature: -1.0 (expected > 0)",
        "3  | NaN | picker.temperature: NaN (expected > 0)",
      })
  void rejectsBadParameters(int topK, double temperature, String message) {
    assertThatThrownBy(() -> new WeightedRandomPicker(topK, temperature))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void builtFromConfigWithParameters() {
    var spec =
        new PluginSpec("weighted-random-picker", null, Map.of("topK", 1, "temperature", "2"));

    var picker = Plugins.picker(spec, "picker");

    assertThat(picker.type()).isEqualTo("weighted-random-picker");
    assertThat(picker.pick(new double[] {1, 3, 2}, 1, new SplittableRandom(1))).containsExactly(1);
  }

  @Test
  void nonNumericParameterNamesItsPath() {
    var spec = new PluginSpec("weighted-random-picker", null, Map.of("temperature", "warm"));

    assertThatThrownBy(() -> Plugins.picker(spec, "picker"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("picker.params.temperature: 'warm' (expected a number)");
  }
}
