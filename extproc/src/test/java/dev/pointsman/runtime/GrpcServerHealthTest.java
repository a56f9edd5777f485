package dev.pointsman.runtime;

import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.NOT_SERVING;
import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GrpcServerHealthTest {
  private static final String EXT_PROC = "envoy.service.ext_proc.v3.ExternalProcessor";
  private static final List<String> READINESS = List.of("readiness", EXT_PROC);
  private static final List<String> LIVENESS = List.of("", "liveness");

  private GrpcServer server;
  private ManagedChannel channel;

  @BeforeEach
  void startWithSelfSignedTls() throws Exception {
    var config =
        GrpcServerConfig.defaults(0)
            .withHost("127.0.0.1")
            .withTls(Tls.selfSigned(List.of("picker.pointsman.svc")));
    server = new GrpcServer(config, List.of(), List.of(EXT_PROC)).start();
    channel = Clients.tls(server.port(), server.certificatePem().orElseThrow(), "localhost");
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.close();
  }

  @Test
  void livenessServesAtOnceAndReadinessFollowsSetReady() {
    LIVENESS.forEach(name -> assertThat(Clients.check(channel, name)).as(name).isEqualTo(SERVING));
    READINESS.forEach(
        name -> assertThat(Clients.check(channel, name)).as(name).isEqualTo(NOT_SERVING));

    server.setReady(true);

    LIVENESS.forEach(name -> assertThat(Clients.check(channel, name)).as(name).isEqualTo(SERVING));
    READINESS.forEach(name -> assertThat(Clients.check(channel, name)).as(name).isEqualTo(SERVING));

    server.setReady(false);

    READINESS.forEach(
        name -> assertThat(Clients.check(channel, name)).as(name).isEqualTo(NOT_SERVING));
  }

  @Test
  void unknownServiceIsNotFound() {
    assertThatThrownBy(() -> Clients.check(channel, "no.such.Service"))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  @Test
  void watchSeesReadinessChange() throws Exception {
    var watcher = new Watcher();
    HealthGrpc.newStub(channel)
        .watch(HealthCheckRequest.newBuilder().setService(EXT_PROC).build(), watcher);
    assertThat(watcher.statuses.poll(10, TimeUnit.SECONDS)).isEqualTo(NOT_SERVING);

    server.setReady(true);

    assertThat(watcher.statuses.poll(10, TimeUnit.SECONDS)).isEqualTo(SERVING);
    watcher.call.cancel("test done", null);
  }

  @Test
  void certificateCoversExtraHostnameAndRejectsOthers() throws Exception {
    String pem = server.certificatePem().orElseThrow();
    ManagedChannel extra = Clients.tls(server.port(), pem, "picker.pointsman.svc");
    ManagedChannel ip = Clients.tls(server.port(), pem, "127.0.0.1");
    ManagedChannel wrong = Clients.tls(server.port(), pem, "evil.example");
    try {
      assertThat(Clients.check(extra, "")).isEqualTo(SERVING);
      assertThat(Clients.check(ip, "")).isEqualTo(SERVING);
      assertThatThrownBy(() -> Clients.check(wrong, ""))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    } finally {
      extra.shutdownNow();
      ip.shutdownNow();
      wrong.shutdownNow();
    }
  }

  @Test
  void startTwiceAndPortBeforeStartAreRejected() {
    assertThatThrownBy(server::start).hasMessageContaining("already started");
    var fresh = new GrpcServer(GrpcServerConfig.defaults(0), List.of(), List.of());
    assertThatThrownBy(fresh::port).hasMessageContaining("not started");
    fresh.close();
  }

  /** Collects Watch updates and keeps the call so the test can cancel it. */
  private static final class Watcher
      implements ClientResponseObserver<HealthCheckRequest, HealthCheckResponse> {
    final BlockingQueue<ServingStatus> statuses = new LinkedBlockingQueue<>();
    volatile ClientCallStreamObserver<HealthCheckRequest> call;

    @Override
    public void beforeStart(ClientCallStreamObserver<HealthCheckRequest> requestStream) {
      call = requestStream;
    }

    @Override
    public void onNext(HealthCheckResponse response) {
      statuses.add(response.getStatus());
    }

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {}
  }
}
