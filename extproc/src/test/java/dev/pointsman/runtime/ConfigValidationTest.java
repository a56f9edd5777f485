package dev.pointsman.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigValidationTest {
  private static final GrpcServerConfig DEFAULTS = GrpcServerConfig.defaults(0);

  @Test
  void defaultsSuitEnvoy() {
    assertThat(DEFAULTS.maxInboundMessageBytes()).isEqualTo(8 * 1024 * 1024);
    assertThat(DEFAULTS.permitKeepAliveTime()).isEqualTo(Duration.ofSeconds(10));
    assertThat(DEFAULTS.drainTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(DEFAULTS.tls().mode()).isEqualTo(Tls.Mode.SELF_SIGNED);
  }

  @Test
  void grpcConfigNamesTheBadValue() {
    assertThatThrownBy(() -> GrpcServerConfig.defaults(70_000))
        .hasMessage("grpc.port: 70000 (expected 0..65535)");
    assertThatThrownBy(() -> DEFAULTS.withHost(" "))
        .hasMessage("grpc.host: ' ' (expected an address)");
    assertThatThrownBy(() -> DEFAULTS.withDrainTimeout(Duration.ofSeconds(-1)))
        .hasMessage("grpc.drainTimeout: PT-1S (expected a duration >= 0)");
    assertThatThrownBy(
            () ->
                new GrpcServerConfig(
                    0, "localhost", Tls.plaintext(), 0, Duration.ZERO, Duration.ZERO))
        .hasMessage("grpc.maxInboundMessageBytes: 0 (expected >= 1)");
  }

  @Test
  void tlsConfigNamesTheBadValue() {
    assertThatThrownBy(() -> Tls.files(Path.of("cert.pem"), null))
        .hasMessageContaining("privateKey=null")
        .hasMessageContaining("expected both paths in FILES mode");
    assertThatThrownBy(() -> Tls.selfSigned(List.of("")))
        .hasMessageContaining("tls.hostnames: blank entry");
    assertThatThrownBy(() -> new Tls(Tls.Mode.PLAINTEXT, Path.of("c"), null, List.of()))
        .hasMessageContaining("expected only in FILES mode");
  }

  @Test
  void adminAndShutdownConfigNameTheBadValue() {
    assertThatThrownBy(() -> AdminServerConfig.of(-1))
        .hasMessage("admin.port: -1 (expected 0..65535)");
    assertThatThrownBy(() -> new Shutdown(List.of(), Duration.ZERO))
        .hasMessage("shutdown timeout: PT0S (expected a duration > 0)");
  }
}
