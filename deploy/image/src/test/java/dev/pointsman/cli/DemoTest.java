package dev.pointsman.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The demo end to end over real sockets: a simulated fleet, the picker, two local gateways and an
 * HTTPS client, both phases, and the comparison. How much faster Pointsman is depends on the
 * machine, so the test asserts completeness, not speed; speed is in docs/benchmarks.md.
 */
class DemoTest {
  private static final Pattern ROW =
      Pattern.compile(
          "^\\s+(round-robin|pointsman)\\s+\\d+ms\\s+\\d+ms\\s+\\d+ms\\s+(\\d+)\\s+(\\d+)$",
          Pattern.MULTILINE);

  @Test
  void aBusyGatewayPortFailsBeforeTheFirstPhaseNamingTheFlag() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    int code;
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      try {
        code =
            Main.commandLine()
                .execute(
                    "demo",
                    "--duration",
                    "4",
                    "--no-serve",
                    "--quiet",
                    "--port",
                    Integer.toString(taken.getLocalPort()));
      } finally {
        System.setOut(originalOut);
        System.setErr(originalErr);
      }
      assertThat(code).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains("port " + taken.getLocalPort() + " is not free")
          .contains("--port PORT")
          .doesNotContain("BindException");
      assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("Phase 1/2");
    }
  }

  @Test
  void runsBothPhasesAndPrintsTheComparison() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream original = System.out;
    int code;
    System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    try {
      code =
          Main.commandLine()
              .execute(
                  "demo", "--duration", "6", "--rate", "3", "--no-serve", "--quiet", "--port", "0");
    } finally {
      System.setOut(original);
    }
    String out = buffer.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isZero();
    Matcher m = ROW.matcher(out);
    int rows = 0;
    while (m.find()) {
      rows++;
      assertThat(Integer.parseInt(m.group(2))).as("%s completed requests", m.group(1)).isPositive();
      assertThat(Integer.parseInt(m.group(3))).as("%s failed requests", m.group(1)).isZero();
    }
    assertThat(rows).as(out).isEqualTo(2);
    assertThat(out).contains("Requests served per pod");
    assertThat(out).containsOnlyOnce("picker ext_proc on");
  }
}
