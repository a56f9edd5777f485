package dev.pointsman.runtime;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Message size limits and graceful close, over a real plaintext socket. */
class GrpcServerCallsTest {
  private static final int MIB = 1024 * 1024;

  private final BytesService service = new BytesService();
  private GrpcServer server;
  private ManagedChannel channel;

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.close();
  }

  @Test
  void acceptsMessagesOverGrpcDefaultUpToConfiguredLimit() {
    start(GrpcServerConfig.DEFAULT_DRAIN_TIMEOUT);

    assertThat(BytesService.callSize(channel, new byte[6 * MIB])).isEqualTo(6 * MIB);
    assertThatThrownBy(() -> BytesService.callSize(channel, new byte[9 * MIB]))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
  }

  @Test
  void closeDrainsInFlightCallAndRejectsNewOnes() throws Exception {
    start(Duration.ofMinutes(10));
    var call = new Recorder();
    ClientCalls.asyncServerStreamingCall(
        channel.newCall(BytesService.HOLD, CallOptions.DEFAULT), new byte[0], call);
    StreamObserver<byte[]> serverSide = service.held.poll(10, TimeUnit.SECONDS);
    assertThat(call.first.await(10, TimeUnit.SECONDS)).isTrue();

    var closed = new CountDownLatch(1);
    Thread.ofPlatform().start(() -> closeAndCount(closed));
    awaitNewCallsRejected();

    assertThat(closed.getCount()).as("close waits for the in-flight call").isEqualTo(1);
    serverSide.onNext(new byte[] {2});
    serverSide.onCompleted();

    assertThat(call.done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(call.error.get()).isNull();
    assertThat(call.messages).hasSize(2);
    assertThat(closed.await(10, TimeUnit.SECONDS)).as("close returns once drained").isTrue();
  }

  @Test
  void closeCancelsCallsStillRunningAfterDrainTimeout() throws Exception {
    start(Duration.ZERO);
    var call = new Recorder();
    ClientCalls.asyncServerStreamingCall(
        channel.newCall(BytesService.HOLD, CallOptions.DEFAULT), new byte[0], call);
    assertThat(service.held.poll(10, TimeUnit.SECONDS)).isNotNull();

    server.close();

    assertThat(call.done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(call.error.get()).isInstanceOf(StatusRuntimeException.class);
  }

  private void start(Duration drainTimeout) {
    var config =
        GrpcServerConfig.defaults(0)
            .withHost("127.0.0.1")
            .withTls(Tls.plaintext())
            .withDrainTimeout(drainTimeout);
    server = new GrpcServer(config, List.of(service), List.of()).start();
    channel = Clients.plaintext(server.port());
  }

  private void closeAndCount(CountDownLatch closed) {
    server.close();
    closed.countDown();
  }

  /** Polls (bounded) until a new call fails because the server no longer accepts calls. */
  private void awaitNewCallsRejected() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      try {
        BytesService.callSize(channel, new byte[1]);
        Thread.onSpinWait();
      } catch (StatusRuntimeException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        return;
      }
    }
    throw new AssertionError("new calls still accepted after close() began");
  }

  /** Records one client-side server-streaming call. */
  private static final class Recorder implements StreamObserver<byte[]> {
    final List<byte[]> messages = new CopyOnWriteArrayList<>();
    final CountDownLatch first = new CountDownLatch(1);
    final CountDownLatch done = new CountDownLatch(1);
    final AtomicReference<Throwable> error = new AtomicReference<>();

    @Override
    public void onNext(byte[] value) {
      messages.add(value);
      first.countDown();
    }

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
