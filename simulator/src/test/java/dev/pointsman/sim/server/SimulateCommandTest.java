package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SimulateCommandTest {
  @TempDir Path dir;

  @Test
  void invalidFleetFileExitsWithTwoAndNamesTheProblem() throws Exception {
    Path f = Files.writeString(dir.resolve("fleet.yaml"), "pods:\n  - {name: a, gpu: TPU}\n");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream old = System.err;
    int code;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code = new CommandLine(new SimulateCommand()).execute("--config", f.toString());
    } finally {
      System.setErr(old);
    }

    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("pods[0].gpu: TPU (expected one of");
  }

  @Test
  void portBaseMovesThePodsToConsecutivePortsInFileOrder() throws Exception {
    Path f =
        Files.writeString(
            dir.resolve("fleet.yaml"),
            "pods:\n  - {name: a, gpu: L4, port: 8001}\n  - {name: b, gpu: L4, port: 8002}\n");
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c).parseArgs("--config", f.toString(), "--port-base", "18001");

    assertThat(c.fleetConfig().pods()).extracting(PodConfig::port).containsExactly(18001, 18002);
    assertThat(c.fleetConfig().pods()).extracting(PodConfig::host).containsOnly("127.0.0.1");
  }

  @Test
  void portBaseZeroGivesEveryPodAnEphemeralPortAndAnOutOfRangeBaseIsRefused() throws Exception {
    Path f =
        Files.writeString(
            dir.resolve("fleet.yaml"),
            "pods:\n  - {name: a, gpu: L4, port: 8001}\n  - {name: b, gpu: L4, port: 8002}\n");
    FleetConfig file = FleetConfig.load(f);

    assertThat(file.withPortBase(0).pods()).extracting(PodConfig::port).containsOnly(0);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> file.withPortBase(65_535))
        .hasMessageContaining("--port-base: 65535");
  }

  @Test
  void aTakenPortExitsWithTwoAndNamesPortBase() throws Exception {
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Path f =
          Files.writeString(
              dir.resolve("fleet.yaml"),
              "pods:\n  - {name: a, gpu: L4, port: " + taken.getLocalPort() + "}\n");
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      PrintStream old = System.err;
      int code;
      try {
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        code = new CommandLine(new SimulateCommand()).execute("--config", f.toString());
      } finally {
        System.setErr(old);
      }

      assertThat(code).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains("a pod's port is taken")
          .contains("--port-base PORT");
    }
  }
}
