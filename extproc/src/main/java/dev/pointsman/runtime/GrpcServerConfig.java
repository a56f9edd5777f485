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
 * @param healthPort a second, plaintext port serving only {@code grpc.health.v1} (for Kubernetes'
 *     gRPC probes, which cannot speak TLS), or {@link #NO_HEALTH_PORT}; 0 picks an ephemeral port
 */
public record GrpcServerConfig(
    int port,
    String host,
    Tls tls,
    int maxInboundMessageBytes,
    Duration permitKeepAliveTime,
    Duration drainTimeout,
    int healthPort) {

  /** No plaintext health port (the default). */
  public static final int NO_HEALTH_PORT = -1;

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
    if (healthPort < NO_HEALTH_PORT || healthPort > 65_535) {
      throw new IllegalArgumentException(
          "grpc.healthPort: " + healthPort + " (expected 0..65535, or absent for none)");
    }
    if (healthPort > 0 && healthPort == port) {
      throw new IllegalArgumentException(
          "grpc.healthPort: " + healthPort + " (expected a port other than grpc.port)");
    }
  }

  /** Settings without a plaintext health port. */
  public GrpcServerConfig(
      int port,
      String host,
      Tls tls,
      int maxInboundMessageBytes,
      Duration permitKeepAliveTime,
      Duration drainTimeout) {
    this(
        port, host, tls, maxInboundMessageBytes, permitKeepAliveTime, drainTimeout, NO_HEALTH_PORT);
  }

  /** A copy with a plaintext health-only port ({@link #NO_HEALTH_PORT}: none). */
  public GrpcServerConfig withHealthPort(int healthPort) {
    return new GrpcServerConfig(
        port, host, tls, maxInboundMessageBytes, permitKeepAliveTime, drainTimeout, healthPort);
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
        port, host, tls, maxInboundMessageBytes, permitKeepAliveTime, drainTimeout, healthPort);
  }

  /** A copy with {@code tls}. */
  public GrpcServerConfig withTls(Tls tls) {
    return new GrpcServerConfig(
        port, host, tls, maxInboundMessageBytes, permitKeepAliveTime, drainTimeout, healthPort);
  }

  /** A copy with {@code drainTimeout}. */
  public GrpcServerConfig withDrainTimeout(Duration drainTimeout) {
    return new GrpcServerConfig(
        port, host, tls, maxInboundMessageBytes, permitKeepAliveTime, drainTimeout, healthPort);
  }

  private static void requireNonNegative(String name, Duration value) {
    if (value == null || value.isNegative()) {
      throw new IllegalArgumentException(name + ": " + value + " (expected a duration >= 0)");
    }
  }
}
