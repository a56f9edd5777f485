package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.bench.routing.suite.Suites;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.SpeedProfile;
import dev.pointsman.picker.scheduling.prior.SpeedPriors;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfile;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MismatchPriorsTest {
  private static final List<EndpointState> FLEET =
      MismatchPriors.GPUS.stream()
          .map(
              g ->
                  new EndpointState(
                      new Endpoint("10.0.0." + g.length() + ":8000", "b", Map.of("gpu", g)),
                      EndpointMetrics.UNKNOWN,
                      true))
          .toList();

  private static List<SpeedProfile> of(SpeedPriors priors) {
    return priors.of(FLEET);
  }

  @Test
  void eachScaledVariantMovesOneGpuTypeByItsFactor() {
    List<SpeedProfile> base = of(SpeedPriors.builtIn());
    for (int g = 0; g < MismatchPriors.GPUS.size(); g++) {
      String key = MismatchPriors.GPUS.get(g).replaceAll("-.*", "").toLowerCase();
      for (double factor : new double[] {0.5, 2}) {
        String name = "prior-" + key + "-x" + (factor == 2 ? "2" : "0.5");
        List<SpeedProfile> p = of(MismatchPriors.priors(name));
        for (int i = 0; i < p.size(); i++) {
          double expected = i == g ? factor : 1;
          assertThat(p.get(i).prefillTokensPerSecond() / base.get(i).prefillTokensPerSecond())
              .as("%s on %s", name, MismatchPriors.GPUS.get(i))
              .isCloseTo(expected, within(1e-9));
          assertThat(base.get(i).decodeStepSeconds() / p.get(i).decodeStepSeconds())
              .isCloseTo(expected, within(1e-9));
        }
      }
    }
  }

  @Test
  void unknownLabelsGetTheNeutralPriorAndAWrongShapeSlowsEveryGpuAlike() {
    assertThat(of(MismatchPriors.priors("prior-l4-unknown")).get(2).name())
        .isEqualTo("neutral (pool median)");
    assertThat(of(MismatchPriors.priors("prior-no-labels")))
        .extracting(SpeedProfile::name)
        .containsOnly("neutral");
    List<SpeedProfile> base = of(SpeedPriors.builtIn());
    List<SpeedProfile> big = of(MismatchPriors.priors("prior-shape-70b"));
    for (int i = 0; i < base.size(); i++) {
      assertThat(base.get(i).prefillTokensPerSecond() / big.get(i).prefillTokensPerSecond())
          .isCloseTo(70.0 / 8, within(1e-9));
    }
  }

  @Test
  void thePickersBuiltInPriorIsNotTheSimulatorsPhysics() {
    // the picker derives its prior from spec sheets; were it a copy of the simulator's profiles,
    // prefill throughput or the decode floor would match
    for (String gpu : MismatchPriors.GPUS) {
      GpuProfile sim = GpuProfiles.builtIn().get(gpu);
      SpeedProfile prior = SpeedProfile.of(new Endpoint("10.0.0.1:8000", "b", Map.of("gpu", gpu)));
      assertThat(Math.abs(prior.prefillTokensPerSecond() / sim.prefillTokensPerSecond() - 1))
          .as("%s prefill", gpu)
          .isGreaterThan(0.05);
      assertThat(Math.abs(prior.decodeStepSeconds() * 1000 / sim.minStepMs() - 1))
          .as("%s decode floor", gpu)
          .isGreaterThan(0.05);
    }
  }

  @Test
  void everyPolicyOfTheSuiteIsCreatedAndNamedAsAsked() {
    List<EngineConfig> configs =
        MismatchPriors.GPUS.stream()
            .map(g -> EngineConfig.of("p-" + g, "base", GpuProfiles.builtIn().get(g)))
            .toList();
    FleetView fleet =
        new FleetView(configs, "base", new VirtualCluster(configs, EngineListener.NONE));
    for (String name : Suites.get("mismatch").policies()) {
      assertThat(Policies.create(name, fleet, new SplittableRandom(1)).name()).isEqualTo(name);
    }
    assertThat(Policies.validate(MismatchPriors.NAMES)).isEqualTo(MismatchPriors.NAMES);
    assertThat(Suites.get("mismatch").scenarios())
        .singleElement()
        .satisfies(s -> assertThat(s.fleet()).hasSize(3));
  }
}
