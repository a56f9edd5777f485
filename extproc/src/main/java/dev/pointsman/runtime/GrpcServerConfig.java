package dev.pointsman.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link GrpcServer}.
 *
 * @param port the port to listen on; 0 picks an ephemeral port
 * @param host the address to bind, e.g. {@code 0.0.0.0}, {@code ::} (dual stack) or {@code
 *     127.0.0.1}
 * @param tls how connections are secured
 * @param maxInboundMessageBytes the largest accepted request message; Envoy sends buffered bodies
 *     in one message, so this must exceed the proxy's body buffer limit
 * @param permitKeepAliveTime the most frequent client keepalive ping accepted (pings without calls
 *     are always permitted, so Envoy's connection keepalive does not trigger GOAWAY)
 * @param drainTimeout how long {@link GrpcServer#close()} waits for in-flight calls
 */
public record GrpcServerConfig(
    int port,
    String host,
    Tls tls,
    int maxInboundMessageBytes,
    Duration permitKeepAliveTime,
    Duration drainTimeout) {

  /** 8 MiB: twice grpc-java's default, enough for Envoy's default 1 MiB body buffer and more. */
  public static final int DEFAULT_MAX_INBOUND_MESSAGE_BYTES = 8 * 1024 * 1024;

  /** The default minimum interval between client keepalive pings. */
  public static final Duration DEFAULT_PERMIT_KEEPALIVE_TIME = Duration.ofSeconds(10);

  /** The default bound on draining in-flight calls at close. */
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

  public GrpcServerConfig {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("grpc.port: " + port + " (expected 0..65535)");
    }
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("grpc.host: '" + host + "' (expected an address)");
    }
    Objects.requireNonNull(tls, "grpc.tls: null (expected a Tls)");
    if (maxInboundMessageBytes < 1) {
      throw new IllegalArgumentException(
          "grpc.maxInboundMessageBytes: " + maxInboundMessageBytes + " (expected >= 1)");
    }
    requireNonNegative("grpc.permitKeepAliveTime", permitKeepAliveTime);
    requireNonNegative("grpc.drainTimeout", drainTimeout);
  }

  /** All defaults: bind {@code 0.0.0.0}, self-signed TLS, 8 MiB, 10 s keepalive, 30 s drain. */
  public static GrpcServerConfig defaults(int port) {
    return new GrpcServerConfig(
        port,
        "0.0.0.0",
        Tls.selfSigned(),
        DEFAULT_MAX_INBOUND_MESSAGE_BYTES,
        DEFAULT_PERMIT_KEEPALIVE_TIME,
        DEFAULT_DRAIN_TIMEOUT);
  }

  /** A copy bound to {@code host}. */
  public GrpcServerConfig withHost(String host) {
    return new GrpcServerConfig(
        port, host, tls, maxInboundMessageBytes, permitKeepAliveTime, drainTimeout);
  }

  /** A copy with {@code tls}. */
  public GrpcServerConfig withTls(Tls tls) {
    return new GrpcServerConfig(
        port, host, tls, maxInboundMessageBytes, permitKeepAliveTime, drainTimeout);
  }

  /** A copy with {@code drainTimeout}. */
  public GrpcServerConfig withDrainTimeout(Duration drainTimeout) {
    return new GrpcServerConfig(
        port, host, tls, maxInboundMessageBytes, permitKeepAliveTime, drainTimeout);
  }

  private static void requireNonNegative(String name, Duration value) {
    if (value == null || value.isNegative()) {
      throw new IllegalArgumentException(name + ": " + value + " (expected a duration >= 0)");
    }
  }
}
