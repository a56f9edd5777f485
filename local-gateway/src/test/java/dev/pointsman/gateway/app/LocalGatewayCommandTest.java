package dev.pointsman.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.PickerSection;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What the gateway's flags make of its defaults, and a clear refusal of a missing caFile. */
class LocalGatewayCommandTest {
  @TempDir Path dir;

  private static GatewayConfig config(String... args) {
    LocalGatewayCommand c = new LocalGatewayCommand();
    new CommandLine(c).parseArgs(args);
    return c.config();
  }

  @Test
  void bindsLoopbackByDefaultWithNoAdminListener() {
    GatewayConfig c = config();

    assertThat(c.listen().host()).isEqualTo("127.0.0.1");
    assertThat(c.admin()).isNull();
  }

  @Test
  void flagsMoveEveryPortAndTheBindAddress() {
    GatewayConfig c =
        config(
            "--port",
            "18443",
            "--admin-port",
            "19901",
            "--bind",
            "0.0.0.0",
            "--picker",
            "127.0.0.1:19002",
            "--picker-ca",
            "x.pem");

    assertThat(c.listen().port()).isEqualTo(18443);
    assertThat(c.listen().host()).isEqualTo("0.0.0.0");
    assertThat(c.admin().port()).isEqualTo(19901);
    assertThat(c.admin().host()).isEqualTo("0.0.0.0");
    assertThat(c.picker().address()).isEqualTo("127.0.0.1:19002");
    assertThat(c.picker().caFile()).isEqualTo("x.pem");
  }

  @Test
  void aMissingCaFileIsRefusedAtStartNamingTheKeyAndTheFix() {
    String missing = dir.resolve("picker.pem").toString();
    GatewayConfig c =
        config("--port", "0", "--picker-ca", missing)
            .withPicker(new PickerSection("127.0.0.1:1", "tls", missing, null, null));

    assertThatThrownBy(() -> LocalGateway.start(c).close())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("picker.caFile: " + missing + " does not exist")
        .hasMessageContaining("start the picker first");
  }
}
