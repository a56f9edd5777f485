package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.sim.engine.Imperfections;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetConfigTest {
  @TempDir Path dir;

  private Path write(String yaml) throws Exception {
    return Files.writeString(dir.resolve("fleet.yaml"), yaml);
  }

  @Test
  void loadsPodsWithDefaults() throws Exception {
    FleetConfig c =
        FleetConfig.load(
            write(
                """
        pods:
          - {name: a, gpu: H100-80, port: 8001, adapters: [x]}
          - {name: b, gpu: L4, engine: sglang, faults: {errorRate: 0.5}}
        """));

    assertThat(c.pods()).hasSize(2);
    assertThat(c.pods().get(0).host()).isEqualTo("127.0.0.1");
    assertThat(c.pods().get(0).maxLoras()).isEqualTo(4);
    assertThat(c.pods().get(1).faults().errorRate()).isEqualTo(0.5);
    assertThat(c.pods().get(1).faults().metrics()).isEqualTo("up");
  }

  @Test
  void loadsEngineOptions() throws Exception {
    FleetConfig c =
        FleetConfig.load(
            write(
                """
        pods:
          - {name: a, gpu: H100-80, engineOptions: {dataParallel: 2}}
          - name: b
            gpu: H100-80
            engine: sglang
            engineOptions: {tensorParallel: 2, allSchedulerMetrics: true, priorities: [0, 10]}
          - {name: c, gpu: H100-80, engine: trtllm, engineOptions: {release: "1.1"}}
          - {name: d, gpu: L4, engine: triton-tensorrt-llm}
        """));

    assertThat(c.pods().get(0).engineOptions().dataParallel()).isEqualTo(2);
    assertThat(c.pods().get(1).engineOptions().reportingRanks()).isEqualTo(2);
    assertThat(c.pods().get(1).engineOptions().priorities()).containsExactly(0, 10);
    assertThat(c.pods().get(2).engineOptions().release()).isEqualTo("1.1");
    assertThat(c.pods().get(3).engineOptions()).isEqualTo(EngineOptions.NONE);
  }

  @Test
  void anEngineOptionOfAnotherEngineNamesTheOwner() throws Exception {
    Path f = write("pods:\n  - {name: a, gpu: L4, engineOptions: {priorities: [1]}}\n");

    assertThatThrownBy(() -> FleetConfig.load(f))
        .hasMessageEndingWith(
            "engineOptions.priorities: set for engine vllm (expected engine sglang)");
  }

  @Test
  void unknownEngineListsTheImitatedOnes() throws Exception {
    Path f = write("pods:\n  - {name: a, gpu: L4, engine: tgi}\n");

    assertThatThrownBy(() -> FleetConfig.load(f))
        .hasMessageEndingWith(
            "engine: tgi (expected one of [vllm, sglang, trtllm, triton-tensorrt-llm])");
  }

  @Test
  void theWorldIsCleanUnlessTheFileSaysOtherwise() throws Exception {
    FleetConfig clean = FleetConfig.load(write("pods:\n  - {name: a, gpu: L4}\n"));
    FleetConfig noisy =
        FleetConfig.load(write("pods:\n  - {name: a, gpu: L4}\nworld: {restartsPerPodHour: 1}\n"));

    assertThat(clean.world()).isEqualTo(Imperfections.CLEAN);
    assertThat(noisy.world().restartsPerPodHour()).isEqualTo(1.0);
    assertThat(noisy.world().stepNoiseSigma()).isEqualTo(Imperfections.REALISTIC.stepNoiseSigma());
    assertThat(noisy.withPortBase(9000).world()).isEqualTo(noisy.world());
  }

  @Test
  void unknownGpuNamesThePodAndTheKnownProfiles() throws Exception {
    Path f = write("pods:\n  - {name: a, gpu: H100-80}\n  - {name: b, gpu: B200}\n");

    assertThatThrownBy(() -> FleetConfig.load(f))
        .hasMessageEndingWith(
            "pods[1].gpu: B200 (expected one of [A100-40, A100-80, A10G, H100-80, L4])");
  }

  @Test
  void invalidFieldNamesItsPath() throws Exception {
    Path f = write("pods:\n  - {name: a, gpu: L4, port: -1}\n");

    assertThatThrownBy(() -> FleetConfig.load(f))
        .hasMessageEndingWith("pods[0].port: -1 (expected 0..65535)");
  }

  @Test
  void nestedFaultErrorNamesItsPath() throws Exception {
    Path f = write("pods:\n  - {name: a, gpu: L4, faults: {metrics: down}}\n");

    assertThatThrownBy(() -> FleetConfig.load(f))
        .hasMessageEndingWith("pods[0].faults.metrics: down (expected one of [up, 503, close])");
  }

  @Test
  void duplicateNamesAreRejected() throws Exception {
    Path f = write("pods:\n  - {name: a, gpu: L4}\n  - {name: a, gpu: L4}\n");

    assertThatThrownBy(() -> FleetConfig.load(f))
        .hasMessageEndingWith("pods[1].name: a (expected a unique name)");
  }

  @Test
  void aPodPicksItsModelShape() throws Exception {
    FleetConfig c =
        FleetConfig.load(
            write(
                "pods:\n  - {name: big, gpu: H100-80, shape: llama-3-70b}\n  - {name: s, gpu: L4}\n"));

    assertThat(c.pods().get(0).shape()).isEqualTo("llama-3-70b");
    assertThat(c.pods().get(1).shape()).isEqualTo("llama-3-8b");
  }

  @Test
  void aShapeWithoutAProfileOnThatGpuNamesThePodAndTheKnownPairs() throws Exception {
    Path f = write("pods:\n  - {name: a, gpu: L4, shape: llama-3-70b}\n");

    assertThatThrownBy(() -> FleetConfig.load(f))
        .hasMessageContaining(
            "pods[0].shape: L4/llama-3-70b (expected one of [A100-40/llama-3-8b,");
  }
}
