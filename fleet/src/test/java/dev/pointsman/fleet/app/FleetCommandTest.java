package dev.pointsman.fleet.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Bad input to {@code pointsman fleet} is a one-line error and exit code 2, never a trace. */
class FleetCommandTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream saved;

  @BeforeEach
  void captureStderr() {
    saved = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreStderr() {
    System.setErr(saved);
  }

  private int run(String yaml) throws Exception {
    Path file = Files.writeString(dir.resolve("fleet.yaml"), yaml);
    return new CommandLine(new FleetCommand()).execute("--config", file.toString());
  }

  @Test
  void aConfigErrorNamesTheKey() throws Exception {
    int code = run("regions: []\n");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("pointsman fleet: ")
        .contains("regions")
        .doesNotContain("\tat ");
  }

  @Test
  void aMissingCertificateFileNamesThePath() throws Exception {
    Path missing = dir.resolve("nowhere.crt");
    int code =
        run(
            """
            grpc: {port: 0, tls: plaintext}
            admin: {port: 0}
            regions: [here]
            summaries: {certChain: "%s", privateKey: "%s", caFile: "%s"}
            clusters:
              - {name: a, gateway: "10.0.0.1:8443", summary: "127.0.0.1:9", tier: spot,
                 pricePerGpuHour: 1, rttMillis: {here: 1}}
            """
                .formatted(missing, missing, missing));

    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("pointsman fleet: ")
        .contains(missing.toString())
        .doesNotContain("\tat ");
  }
}
