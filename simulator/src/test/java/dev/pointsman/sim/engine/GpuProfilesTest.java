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
  void builtInProfilesAreTheDesignTable() {
    GpuProfiles p = GpuProfiles.builtIn();

    assertThat(p.names()).containsExactlyInAnyOrder("H100-80", "A100-80", "A100-40", "A10G", "L4");
    assertThat(p.get("A100-40").kvBlocks()).isEqualTo(9700);
    assertThat(p.get("H100-80").maxBatchedTokens()).isEqualTo(8192);
  }

  @Test
  void unknownNameListsTheKnownOnes() {
    assertThatThrownBy(() -> GpuProfiles.builtIn().get("B200"))
        .hasMessage("B200 (expected one of [A100-40, A100-80, A10G, H100-80, L4])");
  }

  @Test
  void userFileAddsAndOverridesProfiles() throws Exception {
    Path f = dir.resolve("gpus.yaml");
    Files.writeString(f, profileYaml("L4", "999"));

    GpuProfiles p = GpuProfiles.builtIn().withFile(f);

    assertThat(p.get("L4").kvBlocks()).isEqualTo(999);
    assertThat(p.get("H100-80").kvBlocks()).isEqualTo(28000);
  }

  @Test
  void invalidValueNamesItsPath() throws Exception {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(f, profileYaml("X", "-5"));

    assertThatThrownBy(() -> GpuProfiles.builtIn().withFile(f))
        .hasMessageEndingWith("profiles[0].kvBlocks: -5.0 (expected > 0)");
  }

  private static String profileYaml(String name, String blocks) {
    return """
        profiles:
          - name: %s
            prefillTokensPerSecond: 2000
            decodeFloorMs: 70
            kvMicrosPerContextToken: 0.57
            kvBlocks: %s
            blockSize: 16
            maxBatchedTokens: 2048
            maxNumSeqs: 256
            stepOverheadMs: 0.5
            perSeqMicros: 4
            loraStepFactor: 0.035
        """
        .formatted(name, blocks);
  }
}
