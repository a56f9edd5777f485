package dev.pointsman.picker.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.picker.config.PickerConfig;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code grpc.healthPort}: a plaintext port for Kubernetes' gRPC probes that answers {@code
 * grpc.health.v1} ({@code liveness}, {@code readiness}) and nothing else; ext_proc stays on the TLS
 * port only. Off by default.
 */
class HealthPortTest {
  private PickerApp app;
  private ManagedChannel channel;

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (app != null) {
      app.close();
    }
  }

  @Test
  void thePlaintextHealthPortAnswersHealthAndRefusesExtProc() {
    app =
        start("grpc: {port: 0, host: 127.0.0.1, healthPort: 0}\nadmin: {port: 0, host: 127.0.0.1}");
    int port = app.healthPort().orElseThrow();
    assertThat(port).isNotEqualTo(app.grpcPort());
    channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();

    assertThat(check("liveness")).isEqualTo(ServingStatus.SERVING);
    assertThat(check("")).isEqualTo(ServingStatus.SERVING);
    // readiness is answered here as on the TLS port (GrpcServerHealthPortTest follows it)
    assertThat(check("readiness")).isIn(ServingStatus.SERVING, ServingStatus.NOT_SERVING);

    EnvoyReplay s = EnvoyReplay.open(channel);
    s.requestHeaders("POST", "/v1/chat/completions", true);
    assertThat(s.awaitEnd()).as("the stream fails").isFalse();
    assertThat(s.status().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
  }

  @Test
  void noHealthPortByDefault() {
    app = start("grpc: {port: 0, host: 127.0.0.1}\nadmin: {port: 0, host: 127.0.0.1}");
    assertThat(app.healthPort()).isEmpty();
  }

  private ServingStatus check(String service) {
    return HealthGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .check(HealthCheckRequest.newBuilder().setService(service).build())
        .getStatus();
  }

  /** A picker with one pool, its only endpoint never answering a scrape. */
  private static PickerApp start(String yaml) {
    String pools =
        """

        pools:
          - name: gpu-a
            engine: vllm
            models: [llama-3-8b]
            endpoints: [{address: "127.0.0.1:9"}]
        """;
    return new PickerApp(PickerConfig.parse(yaml + pools), null).start();
  }
}
