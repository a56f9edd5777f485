package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PluginsTest {

  private static PolicyConfig scorers(PluginSpec... specs) {
    return new PolicyConfig(null, List.of(specs), null, null, null);
  }

  @Test
  void defaultsBuild() {
    SchedulingPolicy p = Plugins.build(PolicyConfig.defaults());

    assertThat(p.filters())
        .extracting(Filter::type)
        .containsExactly("lora-capacity-filter", "tpot-slo-filter");
    assertThat(p.scorers())
        .extracting(ws -> ws.scorer().type(), WeightedScorer::weight)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("predicted-latency-scorer", 4.0),
            org.assertj.core.groups.Tuple.tuple("lora-affinity-scorer", 2.0),
            org.assertj.core.groups.Tuple.tuple("prefix-cache-scorer", 2.0),
            org.assertj.core.groups.Tuple.tuple("kv-cache-utilization-scorer", 4.0));
    assertThat(p.picker().type()).isEqualTo("max-score-picker");
    assertThat(p.fallbacks()).isZero();
    assertThat(p.saturation()).isEqualTo(Saturation.DEFAULT);
  }

  @Test
  void everyRegisteredScorerBuildsUnderItsOwnName() {
    for (String type : Plugins.SCORERS) {
      assertThat(Plugins.scorer(PluginSpec.of(type, 1), "scorers[0]").type()).isEqualTo(type);
    }
  }

  @Test
  void unknownScorerTypeNamesThePathAndListsTheValidOnes() {
    PolicyConfig c = scorers(PluginSpec.of("queue-scorer", 1), PluginSpec.of("bogus-scorer", 1));

    assertThatThrownBy(() -> Plugins.build(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "scorers[1].type: 'bogus-scorer' (expected one of [kv-cache-utilization-scorer,"
                + " lora-affinity-scorer, predicted-latency-scorer, prefix-cache-scorer,"
                + " queue-scorer, running-requests-scorer])");
  }

  @ParameterizedTest
  @CsvSource({"-1, -1.0", "NaN, NaN", "Infinity, Infinity"})
  void badWeightIsRejectedNamingThePath(double weight, String shown) {
    PolicyConfig c =
        scorers(
            PluginSpec.of("queue-scorer", 1),
            PluginSpec.of("prefix-cache-scorer", 1),
            PluginSpec.of("kv-cache-utilization-scorer", weight));

    assertThatThrownBy(() -> Plugins.build(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scorers[2].weight: " + shown + " (expected >= 0)");
  }

  @Test
  void missingWeightMeansOneAndZeroIsAllowed() {
    SchedulingPolicy p =
        Plugins.build(
            scorers(PluginSpec.of("queue-scorer"), PluginSpec.of("running-requests-scorer", 0)));

    assertThat(p.scorers()).extracting(WeightedScorer::weight).containsExactly(1.0, 0.0);
  }

  @Test
  void unknownFilterNamesThePath() {
    PolicyConfig c = new PolicyConfig(List.of(PluginSpec.of("gpu-filter")), null, null, null, null);

    assertThatThrownBy(() -> Plugins.build(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "filters[0].type: 'gpu-filter' (expected one of [lora-capacity-filter,"
                + " tpot-slo-filter])");
  }

  @Test
  void unknownPickerNamesThePathAndListsTheValidOnes() {
    PolicyConfig c = new PolicyConfig(null, null, PluginSpec.of("random-picker"), null, null);

    assertThatThrownBy(() -> Plugins.build(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "picker.type: 'random-picker' (expected one of [max-score-picker,"
                + " weighted-random-picker])");
  }

  @Test
  void pickerParametersAreValidated() {
    PolicyConfig c =
        new PolicyConfig(
            null,
            null,
            new PluginSpec("weighted-random-picker", null, Map.of("topK", 0)),
            null,
            null);

    assertThatThrownBy(() -> Plugins.build(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("picker.topK: 0 (expected >= 1)");
  }

  @Test
  void weightedRandomPickerDefaultsBuild() {
    PolicyConfig c = new PolicyConfig(null, null, PluginSpec.of("weighted-random-picker"), 3, null);

    SchedulingPolicy p = Plugins.build(c);

    assertThat(p.picker().type()).isEqualTo("weighted-random-picker");
    assertThat(p.fallbacks()).isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 9})
  void fallbacksOutOfRangeAreRejected(int fallbacks) {
    PolicyConfig c = new PolicyConfig(null, null, null, fallbacks, null);

    assertThatThrownBy(() -> Plugins.build(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fallbacks: " + fallbacks + " (expected 0..8)");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "many  | scorers[0].params.meanPromptTokens: 'many' (expected a number)",
        "-5    | scorers[0].params.meanPromptTokens: -5.0 (expected a finite number >= 0)",
        "Infinity | scorers[0].params.meanPromptTokens: Infinity (expected a finite number >= 0)",
      })
  void scorerParametersAreValidatedNamingThePath(String value, String message) {
    PolicyConfig c =
        scorers(new PluginSpec("predicted-latency-scorer", 4.0, Map.of("meanPromptTokens", value)));

    assertThatThrownBy(() -> Plugins.build(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void decodeValueAndThePoolsTpotObjectiveAreValidatedNamingThePath() {
    PolicyConfig decode =
        scorers(new PluginSpec("predicted-latency-scorer", 4.0, Map.of("decodeValue", -1)));
    assertThatThrownBy(() -> Plugins.build(decode))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scorers[0].params.decodeValue: -1.0 (expected a finite number >= 0)");

    PolicyConfig objective =
        new PolicyConfig(
            List.of(new PluginSpec("tpot-slo-filter", null, Map.of("objectiveMs", 0))),
            null,
            null,
            null,
            null);
    assertThatThrownBy(() -> Plugins.build(objective))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("filters[0].params.objectiveMs: 0.0 (expected a number of ms in (0, 3600000))");

    PolicyConfig both =
        new PolicyConfig(
            List.of(new PluginSpec("tpot-slo-filter", null, Map.of("objectiveMs", 50))),
            List.of(new PluginSpec("predicted-latency-scorer", 4.0, Map.of("decodeValue", 0.5))),
            null,
            null,
            null);
    assertThat(Plugins.build(both).filters()).hasSize(1);
  }

  @Test
  void theKvAdmissionSwitchAndReserveAreValidatedNamingThePath() {
    PolicyConfig half =
        scorers(new PluginSpec("predicted-latency-scorer", 4.0, Map.of("kvAdmission", 0.5)));
    assertThatThrownBy(() -> Plugins.build(half))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scorers[0].params.kvAdmission: 0.5 (expected 1 = on or 0 = off)");
    PolicyConfig reserve =
        scorers(new PluginSpec("predicted-latency-scorer", 4.0, Map.of("kvReserveSteps", -2)));
    assertThatThrownBy(() -> Plugins.build(reserve))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scorers[0].params.kvReserveSteps: -2.0 (expected a finite number >= 0)");
    PolicyConfig privately =
        scorers(new PluginSpec("predicted-latency-scorer", 4.0, Map.of("privateCacheValue", -1)));
    assertThatThrownBy(() -> Plugins.build(privately))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scorers[0].params.privateCacheValue: -1.0 (expected a finite number >= 0)");
    for (double bad : new double[] {-1, 0.5, 3e9}) {
      PolicyConfig slots =
          scorers(
              new PluginSpec("predicted-latency-scorer", 4.0, Map.of("maxRunningRequests", bad)));
      assertThatThrownBy(() -> Plugins.build(slots))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "scorers[0].params.maxRunningRequests: "
                  + bad
                  + " (expected a whole number >= 0; 0 = no cap)");
    }
    PolicyConfig off =
        scorers(
            new PluginSpec(
                "predicted-latency-scorer",
                4.0,
                Map.of("kvAdmission", 0, "kvReserveSteps", 30, "maxRunningRequests", 0)));
    assertThat(Plugins.build(off).scorers()).hasSize(1);
  }

  @Test
  void weightedScorerRejectsNegativeWeightDirectly() {
    Scorer q = Plugins.scorer(PluginSpec.of("queue-scorer"), "scorers[0]");

    assertThatThrownBy(() -> new WeightedScorer(q, -0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("weights.queue-scorer: -0.5 (expected a finite number >= 0)");
  }
}
