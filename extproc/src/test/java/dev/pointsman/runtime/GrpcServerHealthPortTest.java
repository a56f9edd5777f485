package dev.pointsman.runtime;

import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.NOT_SERVING;
import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The plaintext health-only port: the same liveness and readiness as the TLS port, no other
 * service, TLS refused, off unless configured.
 */
class GrpcServerHealthPortTest {
  private static final String EXT_PROC = "envoy.service.ext_proc.v3.ExternalProcessor";
  private GrpcServer server;
  private ManagedChannel health;

  @AfterEach
  void stop() {
    if (health != null) {
      health.shutdownNow();
    }
    server.close();
  }

  @Test
  void followsReadinessServesOnlyHealthAndClosesWithTheServer() throws Exception {
    var config = GrpcServerConfig.defaults(0).withHost("127.0.0.1").withHealthPort(0);
    server = new GrpcServer(config, List.of(new BytesService()), List.of(EXT_PROC)).start();
    int port = server.healthPort().orElseThrow();
    assertThat(port).isNotEqualTo(server.port());
    health = Clients.plaintext(port);

    assertThat(Clients.check(health, "liveness")).isEqualTo(SERVING);
    assertThat(Clients.check(health, "readiness")).isEqualTo(NOT_SERVING);
    server.setReady(true);
    assertThat(Clients.check(health, "readiness")).isEqualTo(SERVING);
    assertThat(Clients.check(health, EXT_PROC)).isEqualTo(SERVING);

    // the application's services live on the TLS port only
    assertThatThrownBy(() -> BytesService.callSize(health, new byte[1]))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
    ManagedChannel tls =
        Clients.tls(server.port(), server.certificatePem().orElseThrow(), "localhost");
    try {
      assertThat(BytesService.callSize(tls, new byte[5])).isEqualTo(5);
    } finally {
      tls.shutdownNow();
    }

    server.stopReadiness();
    assertThat(Clients.check(health, "readiness")).isEqualTo(NOT_SERVING);
    server.close();
    assertThatThrownBy(() -> Clients.check(health, "liveness"))
        .isInstanceOf(StatusRuntimeException.class);
  }

  @Test
  void offByDefault() {
    var config = GrpcServerConfig.defaults(0).withHost("127.0.0.1");
    server = new GrpcServer(config, List.of(), List.of()).start();
    assertThat(server.healthPort()).isEmpty();
  }

  @Test
  void aHealthPortEqualToTheMainPortIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> GrpcServerConfig.defaults(9002).withHealthPort(9002))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("grpc.healthPort: 9002");
    server =
        new GrpcServer(GrpcServerConfig.defaults(0).withHost("127.0.0.1"), List.of(), List.of());
  }
}
