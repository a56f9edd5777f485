package dev.pointsman.bench.routing.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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

  @Test
  void aGroupThatOffloadsGetsACpuTierSizedFromItsModelAndLink() throws Exception {
    Scenario s =
        load(
            "fleet: [{gpu: A100-80, count: 1, kvOffloadGiB: 100}, {gpu: H100-80, count: 1,"
                + " shape: llama-3-70b, kvOffloadGiB: 100, kvOffloadGBps: 40}, {gpu: L4,"
                + " count: 1}]");

    List<EngineConfig> configs = Fleets.configs(s);

    // llama-3-8b: 32 layers x 8 KV heads x 128 x 2 x 2 bytes = 128 KiB a token
    assertThat(configs.get(0).offload().cpuBlocks()).isEqualTo(100 * 1024 * 1024 / 128 / 16);
    assertThat(configs.get(0).offload().loadMsPerToken())
        .isCloseTo(131072 / 20e9 * 1e3, within(1e-12));
    // llama-3-70b: 80 layers, 320 KiB a token, loaded by its 4 GPUs at once
    assertThat(configs.get(1).offload().cpuBlocks()).isEqualTo(100 * 1024 * 1024 / 320 / 16);
    assertThat(configs.get(1).offload().loadMsPerToken())
        .isCloseTo(327680 / (40e9 * 4) * 1e3, within(1e-12));
    assertThat(configs.get(2).offload().enabled()).isFalse();
    assertThatThrownBy(() -> load("fleet: [{gpu: L4, count: 1, kvOffloadGiB: -1}]"))
        .hasMessageContaining("kvOffloadGiB: -1.0 (expected >= 0)");
  }

  private Scenario load(String fleet) throws Exception {
    Path f = dir.resolve("mixed.yaml");
    Files.writeString(
        f, "name: mixed\n" + fleet + "\nworkload: [{kind: sharegpt}]\nloads: [0.5]\n");
    return Scenarios.load(f.toString());
  }
}
