package dev.pointsman.runtime;

import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.testing.TestCa;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Tls#mutual}: only clients with a certificate the client CA signed are served. */
class MutualTlsTest {
  @TempDir Path dir;

  @Test
  void aClientCertificateOfTheClientCaIsServedAndNoneOrAnotherIsRefused() throws Exception {
    TestCa ca = TestCa.create(dir, "fleet-ca");
    TestCa other = TestCa.create(dir, "other-ca");
    TestCa.Issued server = ca.server("summary");
    var config =
        GrpcServerConfig.defaults(0)
            .withHost("127.0.0.1")
            .withTls(Tls.mutual(server.certChain(), server.privateKey(), ca.caFile()));
    try (var grpc = new GrpcServer(config, List.of(), List.of()).start()) {
      ManagedChannel good = channel(grpc.port(), ca, ca.client("fleet"));
      ManagedChannel none = channel(grpc.port(), ca, null);
      ManagedChannel foreign = channel(grpc.port(), ca, other.client("intruder"));
      try {
        assertThat(Clients.check(good, "")).isEqualTo(SERVING);
        assertThatThrownBy(() -> Clients.check(none, ""))
            .isInstanceOf(StatusRuntimeException.class);
        assertThatThrownBy(() -> Clients.check(foreign, ""))
            .isInstanceOf(StatusRuntimeException.class);
      } finally {
        good.shutdownNow();
        none.shutdownNow();
        foreign.shutdownNow();
      }
    }
  }

  @Test
  void aClientCaOutsideFilesModeIsRefusedByName() {
    assertThatThrownBy(
            () -> new Tls(Tls.Mode.SELF_SIGNED, null, null, List.of(), dir.resolve("ca.pem")))
        .hasMessage("tls: clientCa set in SELF_SIGNED mode (expected only in FILES mode)");
  }

  private static ManagedChannel channel(int port, TestCa trusted, TestCa.Issued identity)
      throws Exception {
    SslContextBuilder ssl = GrpcSslContexts.forClient().trustManager(trusted.caFile().toFile());
    if (identity != null) {
      ssl.keyManager(identity.certChain().toFile(), identity.privateKey().toFile());
    }
    return NettyChannelBuilder.forAddress("127.0.0.1", port)
        .sslContext(ssl.build())
        .overrideAuthority("localhost")
        .build();
  }
}
