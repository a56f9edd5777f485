package dev.pointsman.gateway.extproc;

import dev.pointsman.gateway.config.HostPort;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.runtime.GrpcServer;
import dev.pointsman.runtime.TrustReloader;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The gRPC channel to the picker: HTTP/2, TLS trusting the configured certificate (or plaintext;
 * {@code caFile} is read again when it changes, see {@link #trust()}), on the gateway's event
 * loops, with a short connect timeout so an unreachable picker fails a request fast. Calls fail at
 * once while the channel is in backoff (no wait-for-ready), as Envoy's do. Thread-safe.
 */
public final class PickerClient implements AutoCloseable {
  private static final long KEEPALIVE_SECONDS = 30;

  private final ManagedChannel channel;
  private final ExternalProcessorGrpc.ExternalProcessorStub stub;
  private final PickerTrouble trouble;
  private final Optional<TrustReloader> trust;

  /**
   * @param tlsChecks runs the periodic checks of {@code picker.caFile}
   */
  public PickerClient(
      PickerSection picker,
      Duration connectTimeout,
      EventLoopGroup group,
      ScheduledExecutorService tlsChecks) {
    HostPort target = picker.hostPort();
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(target.host(), target.port())
            .eventLoopGroup(group)
            .channelType(NioSocketChannel.class)
            .directExecutor()
            .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
            .keepAliveTime(KEEPALIVE_SECONDS, TimeUnit.SECONDS);
    TrustReloader reloader = null;
    if (picker.plaintext()) {
      builder.usePlaintext();
    } else {
      reloader = trustReloader(picker);
      builder.sslContext(sslContext(picker, reloader));
      if (picker.authority() != null) {
        builder.overrideAuthority(picker.authority());
      }
    }
    this.trust = Optional.ofNullable(reloader);
    this.channel = builder.build();
    this.stub = ExternalProcessorGrpc.newStub(channel);
    this.trouble = new PickerTrouble(picker, System::nanoTime);
    trust.ifPresent(r -> r.start(tlsChecks, GrpcServer.TLS_RELOAD_PERIOD));
  }

  private static TrustReloader trustReloader(PickerSection picker) {
    if (picker.caFile() == null) {
      return null;
    }
    if (!new File(picker.caFile()).isFile()) {
      throw new IllegalArgumentException(
          "picker.caFile: "
              + picker.caFile()
              + " does not exist (expected the picker's certificate; `pointsman picker`"
              + " writes it to .pointsman/picker.pem in local mode with grpc.tls:"
              + " self-signed, so start the picker first)");
    }
    try {
      return new TrustReloader("picker.caFile", Path.of(picker.caFile()));
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new IllegalArgumentException(
          "picker.caFile: unusable certificate (" + e.getMessage() + ")", e);
    }
  }

  private static SslContext sslContext(PickerSection picker, TrustReloader reloader) {
    try {
      SslContextBuilder b = GrpcSslContexts.forClient();
      if (picker.caPem() != null) {
        b.trustManager(
            new ByteArrayInputStream(picker.caPem().getBytes(StandardCharsets.US_ASCII)));
      } else if (reloader != null) {
        b.trustManager(reloader.trustManager());
      }
      return b.build();
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "picker.caFile/caPem: unusable certificate (" + e.getMessage() + ")", e);
    }
  }

  /**
   * With {@code picker.caFile}: what keeps the trusted certificates in step with the file, checked
   * every {@link GrpcServer#TLS_RELOAD_PERIOD}. A change applies to connections opened from then on
   * (open ones, and the streams on them, go on).
   */
  public Optional<TrustReloader> trust() {
    return trust;
  }

  /**
   * Moves the channel to idle: the next stream opens a new connection (a new TLS handshake, with
   * the trust in use then); streams open now finish on the connection they have.
   */
  public void reconnect() {
    channel.enterIdle();
  }

  /** Opens one stream; {@code listener} is called on {@code executor}. */
  public ExtProcCall open(Executor executor, ExtProcCall.Listener listener) {
    ExtProcCall call = new ExtProcCall(executor, listener);
    stub.process(call);
    return call;
  }

  /** Says, rate-limited, why a stream failed (trust, refused connection...) and what to check. */
  public void reportFailure(io.grpc.Status status) {
    trouble.report(status);
  }

  @Override
  public void close() {
    trust.ifPresent(TrustReloader::close);
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
