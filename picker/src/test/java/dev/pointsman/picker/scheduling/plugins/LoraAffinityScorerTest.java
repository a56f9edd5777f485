package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Fixtures;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoraAffinityScorerTest {

  private static Set<String> set(String s) {
    return s == null || s.isBlank() ? Set.of() : Set.of(s.trim().split("\\s+"));
  }

  @ParameterizedTest(name = "running [{0}] waiting [{1}] max {2}, adapter {3} -> {4}")
  @CsvSource({
    "a,        ,     4,  a,  1.0", // active
    "a b c d,  ,     4,  a,  1.0", // active even when every slot is used
    "b,        ,     4,  a,  0.8", // free slot
    "b c,      d,    4,  a,  0.8", // 3 of 4 used
    "b c,      a d,  4,  a,  0.6", // full, but already waiting to load
    "b c d,    a,    4,  a,  0.6",
    "b c d e,  ,     4,  a,  0.0", // full, would evict
    "b c,      c,    3,  a,  0.8", // c running and waiting holds one slot: 2 of 3 used
    "b c,      c d,  3,  a,  0.0", // b c d: full
    "b c d e f, ,   -1,  a,  0.8", // slots unknown: assume one is free
    ",         a,   -1,  a,  0.8",
    ",         ,     0,  a,  0.0", // no LoRA slots at all
    "b c d e,  ,     4,  ,   1.0", // base-model request: affinity does not apply
    ",         ,     0,  ,   1.0",
  })
  void affinityTiers(
      String running, String waiting, int maxLoras, String adapter, double expected) {
    var c =
        Fixtures.candidate("10.0.0.1:8000", Fixtures.lora(set(running), set(waiting), maxLoras));
    double[] out = new double[1];

    new LoraAffinityScorer()
        .score(Fixtures.request(adapter, "", 100), List.of(c), new CycleState(0, new long[0]), out);

    assertThat(out[0]).isEqualTo(expected);
  }
}
