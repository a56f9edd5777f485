package dev.pointsman.config;

import dev.pointsman.runtime.GrpcServerConfig;
import dev.pointsman.runtime.Tls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The gRPC listener.
 *
 * @param port TCP port (0: any free port)
 * @param host bind address
 * @param tls {@code self-signed} (default), {@code files} or {@code plaintext}
 * @param certChain PEM certificate chain, with {@code tls: files}
 * @param privateKey PEM private key, with {@code tls: files}
 * @param maxInboundMessageBytes largest ext_proc message accepted
 * @param drainSeconds how long shutdown waits for streams in flight
 * @param healthPort a plaintext port serving only gRPC health ({@code liveness}, {@code readiness})
 *     for Kubernetes' gRPC probes; absent (the default): none
 */
public record GrpcSection(
    Integer port,
    String host,
    String tls,
    String certChain,
    String privateKey,
    Integer maxInboundMessageBytes,
    Integer drainSeconds,
    Integer healthPort) {

  public static final GrpcSection DEFAULTS =
      new GrpcSection(null, null, null, null, null, null, null, null);

  public GrpcSection {
    port = port == null ? 9002 : port;
    host = host == null ? "0.0.0.0" : host;
    tls = tls == null ? "self-signed" : tls.toLowerCase(Locale.ROOT);
    maxInboundMessageBytes =
        maxInboundMessageBytes == null
            ? GrpcServerConfig.DEFAULT_MAX_INBOUND_MESSAGE_BYTES
            : maxInboundMessageBytes;
    drainSeconds = drainSeconds == null ? 30 : drainSeconds;
    if (!List.of("self-signed", "files", "plaintext").contains(tls)) {
      throw new IllegalArgumentException(
          "tls: '" + tls + "' (expected self-signed, files or plaintext)");
    }
    if (tls.equals("files") && (certChain == null || privateKey == null)) {
      throw new IllegalArgumentException(
          "tls: files (expected certChain and privateKey to name PEM files)");
    }
    if (drainSeconds < 0) {
      throw new IllegalArgumentException("drainSeconds: " + drainSeconds + " (expected >= 0)");
    }
    if (healthPort != null && (healthPort < 0 || healthPort > 65_535)) {
      throw new IllegalArgumentException("healthPort: " + healthPort + " (expected 0..65535)");
    }
    toServerConfig(port, host, tls, certChain, privateKey, maxInboundMessageBytes, drainSeconds)
        .withHealthPort(healthPort == null ? GrpcServerConfig.NO_HEALTH_PORT : healthPort);
  }

  public GrpcServerConfig toServerConfig() {
    return toServerConfig(
            port, host, tls, certChain, privateKey, maxInboundMessageBytes, drainSeconds)
        .withHealthPort(healthPort == null ? GrpcServerConfig.NO_HEALTH_PORT : healthPort);
  }

  private static GrpcServerConfig toServerConfig(
      int port,
      String host,
      String tls,
      String certChain,
      String privateKey,
      int maxInboundMessageBytes,
      int drainSeconds) {
    Tls t =
        switch (tls) {
          case "files" -> Tls.files(Path.of(certChain), Path.of(privateKey));
          case "plaintext" -> Tls.plaintext();
          default -> Tls.selfSigned();
        };
    return new GrpcServerConfig(
        port,
        host,
        t,
        maxInboundMessageBytes,
        GrpcServerConfig.DEFAULT_PERMIT_KEEPALIVE_TIME,
        Duration.ofSeconds(drainSeconds));
  }

  public GrpcSection withPort(int newPort) {
    return new GrpcSection(
        newPort,
        host,
        tls,
        certChain,
        privateKey,
        maxInboundMessageBytes,
        drainSeconds,
        healthPort);
  }

  public GrpcSection withTls(String newTls) {
    return new GrpcSection(
        port,
        host,
        newTls,
        certChain,
        privateKey,
        maxInboundMessageBytes,
        drainSeconds,
        healthPort);
  }
}
