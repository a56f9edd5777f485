package dev.pointsman.bench.routing.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.bench.routing.scenario.PodGroup;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetScalingTest {
  /** The S1 mix: 2×H100-80 + 2×A100-80 + 4×L4. */
  private final FleetScaling s1 =
      new FleetScaling(
          List.of(
              new PodGroup("H100-80", 2, null, null, null),
              new PodGroup("A100-80", 2, null, null, null),
              new PodGroup("L4", 4, null, null, null)));

  @Test
  void theScenarioFleetAndItsMultiplesAreOnTheSequence() {
    assertThat(s1.counts(3)).containsExactly(1, 1, 1);
    assertThat(s1.counts(8)).containsExactly(2, 2, 4);
    assertThat(s1.counts(16)).containsExactly(4, 4, 8);
    assertThat(s1.counts(24)).containsExactly(6, 6, 12);
  }

  @Test
  void fleetsAreNestedAndAddOnePodAtATime() {
    int[] previous = s1.counts(3);
    for (int n = 4; n <= 40; n++) {
      int[] now = s1.counts(n);
      int added = 0;
      for (int g = 0; g < now.length; g++) {
        assertThat(now[g]).as("pool %d at %d pods", g, n).isGreaterThanOrEqualTo(previous[g]);
        added += now[g] - previous[g];
      }
      assertThat(added).as("pods added going to %d", n).isEqualTo(1);
      previous = now;
    }
  }

  @Test
  void scaledPoolsKeepTheirSettingsAndEveryPoolKeepsOnePod() {
    FleetScaling lora =
        new FleetScaling(
            List.of(new PodGroup("A100-80", 8, 2, 8, null), new PodGroup("L4", 1, 2, 8, null)));
    List<PodGroup> fleet = lora.fleet(2);
    assertThat(fleet).extracting(PodGroup::count).containsExactly(1, 1);
    assertThat(fleet.get(0).maxLoras()).isEqualTo(2);
    assertThat(fleet.get(0).maxCpuLoras()).isEqualTo(8);
    assertThatThrownBy(() -> lora.fleet(1)).hasMessageContaining("pods: 1 (expected >= 2");
  }
}
