package dev.pointsman.bench.routing.run;

import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.GpuProfile;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.KvOffload;
import java.util.ArrayList;
import java.util.List;

/** Builds a scenario's engine configurations. */
public final class Fleets {
  private static final GpuProfiles PROFILES = GpuProfiles.builtIn();

  private Fleets() {}

  /** One engine config per pod, groups in order. */
  public static List<EngineConfig> configs(Scenario scenario) {
    List<EngineConfig> out = new ArrayList<>();
    for (int g = 0; g < scenario.fleet().size(); g++) {
      out.addAll(group(scenario, g, out.size()));
    }
    return out;
  }

  static List<EngineConfig> group(Scenario scenario, int g, int firstIndex) {
    PodGroup group = scenario.fleet().get(g);
    GpuProfile profile =
        PROFILES.forEntry(scenario.name() + ": fleet[" + g + "]", group.gpu(), group.shape());
    KvOffload offload =
        KvOffload.forPod(
            group.kvOffloadGiB(), group.kvOffloadGBps(), PROFILES.model(group.shape()), profile);
    List<EngineConfig> out = new ArrayList<>();
    for (int i = 0; i < group.count(); i++) {
      out.add(
          EngineConfig.of(
                  "pod-" + (firstIndex + i) + "-" + label(group).replace('/', '-'),
                  scenario.model(),
                  profile)
              .withLoras(group.maxLoras(), group.maxCpuLoras())
              .withOffload(offload));
    }
    return out;
  }

  /** The group's GPU type, with its model shape when that is not the default one. */
  public static String label(PodGroup group) {
    return group.shape().equals(GpuProfiles.DEFAULT_MODEL)
        ? group.gpu()
        : group.gpu() + "/" + group.shape();
  }
}
