package dev.pointsman.bench.routing.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.sim.engine.Imperfections;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scenarios run in the imperfect world unless they, a variant or the command line say clean. */
class WorldTest {

  @Test
  void shippedScenariosRunInTheImperfectWorld() {
    for (String name : Scenarios.SHIPPED) {
      for (Scenario s : Scenarios.load(name).quickVersion().instances()) {
        assertThat(s.world()).as(s.name()).isEqualTo(Imperfections.REALISTIC);
        assertThat(s.cleanWorld()).isFalse();
        assertThat(s.scrape().isClean()).isFalse();
        assertThat(s.scrape().lagMedianMs()).isEqualTo(ScrapeSpec.DEFAULT_LAG_MEDIAN_MS);
        assertThat(s.scrape().failureRate()).isEqualTo(ScrapeSpec.DEFAULT_FAILURE_RATE);
      }
    }
  }

  @Test
  void theCleanWorldTurnsOffNoiseStragglersRestartsAndScrapeFaults() {
    Scenario clean = Scenarios.load("s1").inCleanWorld();

    assertThat(clean.world()).isEqualTo(Imperfections.CLEAN);
    assertThat(clean.world().isClean()).isTrue();
    assertThat(clean.scrape().isClean()).isTrue();
    assertThat(clean.scrape().intervalMs()).isEqualTo(50.0);
    assertThat(clean.quickVersion().world()).isEqualTo(Imperfections.CLEAN);
  }

  @Test
  void aScenarioFileSetsItsWorldAndAVariantCanBeClean(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("w.yaml");
    Files.writeString(
        file,
        """
        name: w
        fleet: [{gpu: L4, count: 2}]
        workload: [{kind: sharegpt}]
        loads: [0.2]
        world: {stragglersPerPodHour: 12, stragglerSeconds: 10}
        scrape: {lagMedianMs: 20, failureRate: 0.05}
        variants:
          - {name: noisy}
          - {name: clean, cleanWorld: true}
          - {name: calm, world: {base: clean, stepNoiseSigma: 0.2}}
        """);
    List<Scenario> runs = Scenarios.load(file.toString()).instances();

    Scenario noisy = runs.get(0);
    assertThat(noisy.world().stragglersPerPodHour()).isEqualTo(12.0);
    assertThat(noisy.world().stragglerSeconds()).isEqualTo(10.0);
    assertThat(noisy.world().stepNoiseSigma()).isEqualTo(Imperfections.REALISTIC.stepNoiseSigma());
    assertThat(noisy.scrape().lagMedianMs()).isEqualTo(20.0);
    assertThat(noisy.scrape().failureRate()).isEqualTo(0.05);
    assertThat(runs.get(1).name()).isEqualTo("w-clean");
    assertThat(runs.get(1).world()).isEqualTo(Imperfections.CLEAN);
    assertThat(runs.get(1).scrape().isClean()).isTrue();
    Scenario calm = runs.get(2);
    assertThat(calm.world().stepNoiseSigma()).isEqualTo(0.2);
    assertThat(calm.world().restartsPerPodHour()).isZero();
    assertThat(calm.scrape().lagMedianMs()).isEqualTo(20.0);
  }

  @Test
  void badWorldValuesNameTheField(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(
        file,
        """
        name: bad
        fleet: [{gpu: L4}]
        workload: [{kind: sharegpt}]
        loads: [0.2]
        world: {stragglerMinSlowdown: 0.5}
        """);
    assertThatThrownBy(() -> Scenarios.load(file.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stragglerMinSlowdown/stragglerMaxSlowdown: 0.5/3.0");
    assertThatThrownBy(() -> new ScrapeSpec(null, null, null, null, 1.5, null))
        .hasMessage("failureRate: 1.5 (expected in [0, 1])");
  }
}
