package dev.pointsman.runtime;

import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificate rotation the way Kubernetes updates a Secret volume (a new timestamped directory,
 * then the {@code ..data} symlink swapped atomically), over real TLS sockets: streams open across
 * the rotation complete, new connections verify against the new CA only, and a bad new pair keeps
 * the old one.
 */
class CertificateReloadTest {
  private static final SelfSigned A = SelfSigned.generate(List.of());
  private static final SelfSigned B = SelfSigned.generate(List.of());

  @TempDir Path volume;
  private final BytesService service = new BytesService();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final AtomicInteger generation = new AtomicInteger();
  private GrpcServer server;

  @BeforeEach
  void start() throws Exception {
    project(A.certificatePem(), A.privateKeyPem());
    Files.createSymbolicLink(volume.resolve("tls.crt"), Path.of("..data/tls.crt"));
    Files.createSymbolicLink(volume.resolve("tls.key"), Path.of("..data/tls.key"));
    var config =
        GrpcServerConfig.defaults(0)
            .withHost("127.0.0.1")
            .withTls(Tls.files(volume.resolve("tls.crt"), volume.resolve("tls.key")));
    server = new GrpcServer(config, List.of(service), List.of()).start();
  }

  @AfterEach
  void stop() {
    channels.forEach(ManagedChannel::shutdownNow);
    server.close();
  }

  @Test
  void streamsOpenAcrossARotationCompleteAndNewConnectionsTrustOnlyTheNewCa() throws Exception {
    ManagedChannel oldTrust = channel(A);
    assertThat(Clients.check(oldTrust, "")).isEqualTo(SERVING);
    List<Recorder> clients = new ArrayList<>();
    List<StreamObserver<byte[]>> open = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      var client = new Recorder();
      ClientCalls.asyncServerStreamingCall(
          oldTrust.newCall(BytesService.HOLD, CallOptions.DEFAULT), new byte[0], client);
      StreamObserver<byte[]> held = service.held.poll(10, TimeUnit.SECONDS);
      assertThat(held).as("stream %s open", i).isNotNull();
      clients.add(client);
      open.add(held);
    }

    // when: the Secret is renewed with a certificate of a new CA
    project(B.certificatePem(), B.privateKeyPem());
    assertThat(server.reloadTls()).isEqualTo(CertificateReloader.Outcome.RELOADED);

    // then: every open stream goes on and completes
    for (StreamObserver<byte[]> held : open) {
      held.onNext(new byte[] {2});
      held.onCompleted();
    }
    for (Recorder client : clients) {
      assertThat(client.done.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(client.error.get()).isNull();
      assertThat(client.messages.get()).isEqualTo(2);
    }
    // the open connection keeps serving new calls (no new handshake)
    assertThat(BytesService.callSize(oldTrust, new byte[3])).isEqualTo(3);
    // a new connection verifies against the new CA, and not against the old one
    assertThat(Clients.check(channel(B), "")).isEqualTo(SERVING);
    assertHandshakeFails(channel(A));
    assertThat(server.certificatePem()).contains(B.certificatePem());
    assertThat(server.tlsReloadCount()).isEqualTo(1);
    assertThat(server.tlsReloadFailures()).isZero();
    assertThat(server.reloadTls()).isEqualTo(CertificateReloader.Outcome.UNCHANGED);
  }

  @Test
  void aKeyOfAnotherCertificateIsRefusedCountedOnceAndTheOldPairServesOn() throws Exception {
    project(B.certificatePem(), A.privateKeyPem());
    assertThat(server.reloadTls()).isEqualTo(CertificateReloader.Outcome.REJECTED);
    assertThat(server.reloadTls()).isEqualTo(CertificateReloader.Outcome.REJECTED);
    assertThat(server.tlsReloadFailures()).isEqualTo(1);
    assertThat(server.tlsReloadCount()).isZero();
    assertThat(Clients.check(channel(A), "")).isEqualTo(SERVING);
    assertHandshakeFails(channel(B));

    // the renewal completes: the matching pair is taken
    project(B.certificatePem(), B.privateKeyPem());
    assertThat(server.reloadTls()).isEqualTo(CertificateReloader.Outcome.RELOADED);
    assertThat(Clients.check(channel(B), "")).isEqualTo(SERVING);
  }

  @Test
  void unreadableOrGarbledFilesAreRefusedAndTheOldPairServesOn() throws Exception {
    project(
        A.certificatePem(), "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
    assertThat(server.reloadTls()).isEqualTo(CertificateReloader.Outcome.REJECTED);
    Files.delete(volume.resolve("..data").toRealPath().resolve("tls.key"));
    assertThat(server.reloadTls()).isEqualTo(CertificateReloader.Outcome.REJECTED);
    assertThat(server.tlsReloadFailures()).isEqualTo(2);
    assertThat(Clients.check(channel(A), "")).isEqualTo(SERVING);
  }

  @Test
  void theReloaderChecksOnItsScheduleWithoutBeingAsked() throws Exception {
    var executor = new ScheduledThreadPoolExecutor(1);
    try (var reloader =
        new CertificateReloader(volume.resolve("tls.crt"), volume.resolve("tls.key"))) {
      reloader.start(executor, Duration.ofHours(1));
      ScheduledFuture<?> scheduled = (ScheduledFuture<?>) executor.getQueue().peek();
      assertThat((Object) scheduled).isNotNull();
      assertThat(scheduled.getDelay(TimeUnit.MINUTES)).isBetween(59L, 60L);
      project(B.certificatePem(), B.privateKeyPem());
      ((Runnable) scheduled).run(); // the scheduled check, run now instead of in an hour
      assertThat(reloader.reloads()).isEqualTo(1);
      assertThat(reloader.certificatePem()).isEqualTo(B.certificatePem());
    } finally {
      executor.shutdownNow();
    }
  }

  /** Writes a new timestamped directory and swaps {@code ..data} to it, as the kubelet does. */
  private void project(String certPem, String keyPem) throws Exception {
    Path dir = Files.createDirectory(volume.resolve("..gen_" + generation.incrementAndGet()));
    Files.writeString(dir.resolve("tls.crt"), certPem);
    Files.writeString(dir.resolve("tls.key"), keyPem);
    Path tmp = volume.resolve("..data_tmp");
    Files.createSymbolicLink(tmp, dir.getFileName());
    Files.move(tmp, volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
  }

  private ManagedChannel channel(SelfSigned trusted) throws Exception {
    ManagedChannel c = Clients.tls(server.port(), trusted.certificatePem(), "localhost");
    channels.add(c);
    return c;
  }

  private static void assertHandshakeFails(ManagedChannel channel) {
    assertThatThrownBy(() -> Clients.check(channel, ""))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
  }

  private static final class Recorder implements StreamObserver<byte[]> {
    final CountDownLatch done = new CountDownLatch(1);
    final AtomicReference<Throwable> error = new AtomicReference<>();
    final AtomicInteger messages = new AtomicInteger();

    @Override
    public void onNext(byte[] value) {
      messages.incrementAndGet();
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
