package dev.pointsman.runtime;

import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.NOT_SERVING;
import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Graceful drain: readiness goes NOT_SERVING first, the server keeps serving for the grace period
 * (the injected pause stands for it, so no test waits for time to pass), then the listener closes.
 */
class GrpcServerDrainTest {
  private static final String EXT_PROC = "envoy.service.ext_proc.v3.ExternalProcessor";
  private static final Duration GRACE = Duration.ofSeconds(12);

  private final BytesService service = new BytesService();
  private GrpcServer server;
  private ManagedChannel channel;

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.close();
  }

  @Test
  void readinessFlipsFirstThenStreamsOldAndNewCompleteThenTheServerStops() throws Exception {
    var config =
        GrpcServerConfig.defaults(0)
            .withHost("127.0.0.1")
            .withTls(Tls.plaintext())
            .withDrainTimeout(Duration.ofMinutes(10));
    server = new GrpcServer(config, List.of(service), List.of(EXT_PROC)).start();
    channel = Clients.plaintext(server.port());
    server.setReady(true);

    var inFlight = new Recorder();
    ClientCalls.asyncServerStreamingCall(
        channel.newCall(BytesService.HOLD, CallOptions.DEFAULT), new byte[0], inFlight);
    StreamObserver<byte[]> inFlightServer = service.held.poll(10, TimeUnit.SECONDS);
    assertThat(inFlightServer).isNotNull();

    var paused = new CountDownLatch(1);
    var resume = new CountDownLatch(1);
    var pausedFor = new AtomicReference<Duration>();
    GrpcServer.Pause pause =
        d -> {
          pausedFor.set(d);
          paused.countDown();
          resume.await();
        };
    var closed = new CountDownLatch(1);
    Thread.ofPlatform()
        .start(
            () -> {
              server.drainAndClose(GRACE, pause);
              closed.countDown();
            });
    assertThat(paused.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(pausedFor.get()).isEqualTo(GRACE);

    // during the grace period: not ready, still alive, still serving
    assertThat(Clients.check(channel, "readiness")).isEqualTo(NOT_SERVING);
    assertThat(Clients.check(channel, EXT_PROC)).isEqualTo(NOT_SERVING);
    assertThat(Clients.check(channel, "liveness")).isEqualTo(SERVING);
    server.setReady(true);
    assertThat(Clients.check(channel, EXT_PROC))
        .as("readiness cannot come back once draining")
        .isEqualTo(NOT_SERVING);
    assertThat(BytesService.callSize(channel, new byte[3])).as("a new call").isEqualTo(3);
    var newStream = new Recorder();
    ClientCalls.asyncServerStreamingCall(
        channel.newCall(BytesService.HOLD, CallOptions.DEFAULT), new byte[0], newStream);
    StreamObserver<byte[]> newServer = service.held.poll(10, TimeUnit.SECONDS);
    assertThat(newServer).as("a new stream is accepted").isNotNull();
    inFlightServer.onCompleted();
    newServer.onCompleted();
    assertThat(inFlight.done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(newStream.done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(inFlight.error.get()).isNull();
    assertThat(newStream.error.get()).isNull();
    assertThat(closed.getCount()).as("still serving until the grace ends").isEqualTo(1);

    resume.countDown();
    assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(() -> BytesService.callSize(channel, new byte[1]))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
  }

  @Test
  void aZeroGraceClosesAtOnce() {
    var config = GrpcServerConfig.defaults(0).withHost("127.0.0.1").withTls(Tls.plaintext());
    server = new GrpcServer(config, List.of(service), List.of()).start();
    channel = Clients.plaintext(server.port());
    server.drainAndClose(
        Duration.ZERO,
        d -> {
          throw new AssertionError("no pause for a zero grace");
        });
    assertThatThrownBy(() -> BytesService.callSize(channel, new byte[1]))
        .isInstanceOf(StatusRuntimeException.class);
  }

  private static final class Recorder implements StreamObserver<byte[]> {
    final CountDownLatch done = new CountDownLatch(1);
    final AtomicReference<Throwable> error = new AtomicReference<>();

    @Override
    public void onNext(byte[] value) {}

    @Override
    public void onError(Throwable t) {
      error.set(t);
      done.countDown();
    }

    @Override
    public void onCompleted() {
      done.countDown();
    }
  }
}
