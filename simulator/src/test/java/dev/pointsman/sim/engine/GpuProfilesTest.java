package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpuProfilesTest {
  @TempDir Path dir;

  @Test
  void builtInProfilesCoverEveryGpuWithTheSmallModelAndTwoSeventyBillionPods() {
    GpuProfiles p = GpuProfiles.builtIn();

    assertThat(p.names()).containsExactly("A100-40", "A100-80", "A10G", "H100-80", "L4");
    assertThat(p.keys()).contains("H100-80/llama-3-70b", "A100-80/llama-3-70b");
    assertThat(p.get("H100-80", "llama-3-70b").tensorParallel()).isEqualTo(4);
    assertThat(p.get("H100-80").model()).isEqualTo("llama-3-8b");
    assertThat(p.get("H100-80").maxBatchedTokens()).isEqualTo(8192);
  }

  @Test
  void unknownNamesListTheKnownOnes() {
    assertThatThrownBy(() -> GpuProfiles.builtIn().get("B200"))
        .hasMessage("B200 (expected one of [A100-40, A100-80, A10G, H100-80, L4])");
    assertThatThrownBy(() -> GpuProfiles.builtIn().get("L4", "llama-3-70b"))
        .hasMessageStartingWith("L4/llama-3-70b (expected one of [A100-40/llama-3-8b,");
  }

  @Test
  void userFileOverridesASpecSheetAndEveryProfileOfThatGpuFollows() throws Exception {
    Path f = dir.resolve("gpus.yaml");
    Files.writeString(
        f,
        "gpus:\n  - {name: L4, bf16Tflops: 121, memoryTBps: 0.15, memoryGiB: 48, linkGBps: 0}\n");

    GpuProfiles builtIn = GpuProfiles.builtIn();
    GpuProfiles p = builtIn.withFile(f);

    assertThat(p.get("L4").kvTokens()).isGreaterThan(builtIn.get("L4").kvTokens());
    assertThat(p.get("L4").costs().linearFloorMs())
        .isGreaterThan(builtIn.get("L4").costs().linearFloorMs());
    assertThat(p.get("H100-80")).isEqualTo(builtIn.get("H100-80"));
  }

  @Test
  void userFileAddsAProfile() throws Exception {
    Path f = dir.resolve("more.yaml");
    Files.writeString(
        f,
        "profiles:\n  - {gpu: H100-80, model: llama-3-70b, tensorParallel: 8, maxBatchedTokens: 8192}\n");

    GpuProfile p = GpuProfiles.builtIn().withFile(f).get("H100-80", "llama-3-70b");

    assertThat(p.tensorParallel()).isEqualTo(8);
  }

  @Test
  void aModelThatDoesNotFitIsAClearError() throws Exception {
    Path f = dir.resolve("big.yaml");
    Files.writeString(f, "profiles:\n  - {gpu: L4, model: llama-3-70b, maxBatchedTokens: 2048}\n");

    assertThatThrownBy(() -> GpuProfiles.builtIn().withFile(f))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("L4/llama-3-70b")
        .hasMessageContaining("the weights do not fit");
  }

  @Test
  void tensorParallelismWithoutALinkIsAClearError() throws Exception {
    Path f = dir.resolve("tp.yaml");
    Files.writeString(
        f,
        "profiles:\n  - {gpu: L4, model: llama-3-8b, tensorParallel: 2, maxBatchedTokens: 2048}\n");

    assertThatThrownBy(() -> GpuProfiles.builtIn().withFile(f))
        .hasMessageContaining("L4: tensorParallel 2 (expected 1: the GPU has no linkGBps)");
  }

  @Test
  void invalidValueNamesItsPath() throws Exception {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(
        f, "gpus:\n  - {name: X, bf16Tflops: -5, memoryTBps: 1, memoryGiB: 8, linkGBps: 0}\n");

    assertThatThrownBy(() -> GpuProfiles.builtIn().withFile(f))
        .hasMessageEndingWith("gpus[0].bf16Tflops: -5.0 (expected > 0)");
  }
}
