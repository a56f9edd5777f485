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
}
