package dev.pointsman.fleet.summary;

import dev.pointsman.fleet.config.ClusterConfig;
import dev.pointsman.fleet.config.SummariesSection;
import dev.pointsman.runtime.CertificateReloader;
import dev.pointsman.runtime.TrustReloader;
import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import javax.net.ssl.SSLException;

/**
 * The fleet's side of the summary channel's mutual TLS: one client certificate and one CA bundle,
 * both read again when their files change (the runtime's reloaders, as the picker's listener and
 * the local gateway use them), shared by every cluster's channel.
 */
public final class SummaryChannels implements AutoCloseable {
  private final CertificateReloader identity;
  private final TrustReloader trust;
  private final SslContext ssl;

  /**
   * Reads the files once.
   *
   * @throws IllegalArgumentException or {@link java.io.UncheckedIOException} naming a bad file
   */
  public SummaryChannels(SummariesSection config) {
    this.identity = new CertificateReloader(config.certChainPath(), config.privateKeyPath());
    this.trust = new TrustReloader("summaries.caFile", config.caFilePath());
    try {
      this.ssl =
          GrpcSslContexts.forClient()
              .keyManager(identity.keyManager())
              .trustManager(trust.trustManager())
              .build();
    } catch (SSLException e) {
      throw new IllegalArgumentException(
          "summaries: unusable certificate or key: " + e.getMessage(), e);
    }
  }

  /** Checks the files every {@code period} on {@code executor}. */
  public void start(ScheduledExecutorService executor, Duration period) {
    identity.start(executor, period);
    trust.start(executor, period);
  }

  /** A channel to {@code cluster}'s summary listener, verifying its TLS name. */
  public ManagedChannel open(ClusterConfig cluster) {
    int colon = cluster.summary().lastIndexOf(':');
    return NettyChannelBuilder.forAddress(
            cluster.summary().substring(0, colon),
            Integer.parseInt(cluster.summary().substring(colon + 1)))
        .sslContext(ssl)
        .overrideAuthority(cluster.summaryAuthority())
        .maxInboundMessageSize(1 << 20)
        .build();
  }

  @Override
  public void close() {
    identity.close();
    trust.close();
  }
}
