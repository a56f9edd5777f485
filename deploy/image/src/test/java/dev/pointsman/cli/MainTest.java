package dev.pointsman.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {

  @Test
  void listsEveryRoleAsASubcommand() {
    CommandLine cli = Main.commandLine();
    assertThat(cli.getSubcommands())
        .containsKeys(
            "demo",
            "picker",
            "body-router",
            "simulate",
            "local-gateway",
            "fleet",
            "bench",
            "certs");
  }

  @Test
  void pickerWithoutConfigIsAClearUsageError() {
    CommandLine cli = Main.commandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err));
    int code = cli.execute("picker", "--config", "/nonexistent/picker.yaml");
    assertThat(code).isNotZero();
  }
}
