package dev.pointsman.bench.routing.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.List;
import org.junit.jupiter.api.Test;

class GpuPricesTest {
  private final GpuPrices prices =
      of(
          new GpuPrices.Price("H100-80", "eight", 80.0, 8),
          new GpuPrices.Price("L4", "one", 0.75, 1));

  /** Test prices. */
  static GpuPrices of(GpuPrices.Price... prices) {
    return new GpuPrices("USD", "test", "never", List.of(prices));
  }

  @Test
  void aFleetCostsItsPodsTimesTheirGpusTimesThePricePerGpuHour() {
    List<PodGroup> fleet =
        List.of(
            new PodGroup("H100-80", 2, null, null, null), new PodGroup("L4", 4, null, null, null));
    assertThat(prices.perGpuHour("H100-80")).isEqualTo(10.0);
    assertThat(prices.fleetPerHour(fleet)).isCloseTo(2 * 10.0 + 4 * 0.75, within(1e-9));
  }

  @Test
  void aTensorParallelPodPaysForEachOfItsGpus() {
    List<PodGroup> seventy = List.of(new PodGroup("H100-80", 1, null, null, "llama-3-70b"));
    // the simulator's 70B profile on H100-80 is a 4-GPU tensor-parallel pod
    assertThat(prices.fleetPerHour(seventy)).isCloseTo(4 * 10.0, within(1e-9));
  }

  @Test
  void badPricesAndUnknownGpusAreNamed() {
    assertThatThrownBy(() -> prices.perGpuHour("B200"))
        .hasMessageContaining("'B200'")
        .hasMessageContaining("H100-80");
    assertThatThrownBy(() -> new GpuPrices.Price("L4", "x", 0, 1))
        .hasMessageContaining("L4.instanceUsdPerHour: 0.0");
    assertThatThrownBy(() -> new GpuPrices.Price("L4", "x", 1, 0))
        .hasMessageContaining("L4.gpusPerInstance: 0");
  }

  @Test
  void theShippedPricesCoverEveryGpuOfTheSuitesScenarios() {
    GpuPrices shipped = GpuPrices.shipped();
    for (String name : PodsNeededSuite.SCENARIOS) {
      Scenario s = Scenarios.load(name);
      assertThat(shipped.fleetPerHour(s.fleet())).as(name).isPositive();
    }
    assertThat(shipped.perGpuHour("H100-80")).isGreaterThan(shipped.perGpuHour("L4"));
  }
}
