package dev.pointsman.bench.routing.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.sim.engine.EngineConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetsTest {
  @TempDir Path dir;

  @Test
  void aFleetMixesModelShapesByGroup() throws Exception {
    Scenario s =
        load(
            "fleet: [{gpu: H100-80, count: 1, shape: llama-3-70b}, {gpu: A100-80, count: 1,"
                + " shape: llama-3-70b}, {gpu: L4, count: 2}]");

    List<EngineConfig> configs = Fleets.configs(s);

    assertThat(configs)
        .extracting(c -> c.gpu().model())
        .containsExactly("llama-3-70b", "llama-3-70b", "llama-3-8b", "llama-3-8b");
    assertThat(configs).extracting(c -> c.gpu().tensorParallel()).containsExactly(4, 4, 1, 1);
    assertThat(configs.get(0).name()).isEqualTo("pod-0-H100-80-llama-3-70b");
    assertThat(configs.get(2).name()).isEqualTo("pod-2-L4");
  }

  @Test
  void aShapeWithoutAProfileOnThatGpuNamesTheGroup() throws Exception {
    Scenario s = load("fleet: [{gpu: L4, count: 1, shape: llama-3-70b}]");

    assertThatThrownBy(() -> Fleets.configs(s))
        .hasMessageContaining("mixed: fleet[0].shape: L4/llama-3-70b (expected one of");
  }

  private Scenario load(String fleet) throws Exception {
    Path f = dir.resolve("mixed.yaml");
    Files.writeString(
        f, "name: mixed\n" + fleet + "\nworkload: [{kind: sharegpt}]\nloads: [0.5]\n");
    return Scenarios.load(f.toString());
  }
}
