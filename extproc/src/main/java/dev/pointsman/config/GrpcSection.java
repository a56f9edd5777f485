package dev.pointsman.config;

import dev.pointsman.extproc.BodyMode;
import dev.pointsman.extproc.ExtProcSettings;
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
 * @param host bind address, default loopback ({@code 127.0.0.1}); {@code picker --kubernetes} and
 *     the Helm chart bind {@code 0.0.0.0}
 * @param tls {@code self-signed} (default), {@code files} or {@code plaintext}
 * @param certChain PEM certificate chain, with {@code tls: files}
 * @param privateKey PEM private key, with {@code tls: files}
 * @param maxInboundMessageBytes largest ext_proc message accepted; by default the larger of 8 MiB
 *     and {@code extProc.maxBodyBytes} plus {@link #MESSAGE_HEADROOM_BYTES} (Envoy sends a BUFFERED
 *     body in one message, which must reach the picker for its 413); when set with BUFFERED request
 *     bodies it must be at least that
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

  /** Room for a body message's framing and metadata beyond the body bytes themselves. */
  public static final int MESSAGE_HEADROOM_BYTES = 1 << 20;

  public GrpcSection {
    port = port == null ? 9002 : port;
    host = host == null ? "127.0.0.1" : host;
    tls = tls == null ? "self-signed" : tls.toLowerCase(Locale.ROOT);
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
    serverConfig(
        port,
        host,
        tls,
        certChain,
        privateKey,
        maxInboundMessageBytes == null
            ? GrpcServerConfig.DEFAULT_MAX_INBOUND_MESSAGE_BYTES
            : maxInboundMessageBytes,
        drainSeconds);
  }

  /** The server settings for an ext_proc service with {@code settings}. */
  public GrpcServerConfig toServerConfig(ExtProcSettings settings) {
    return serverConfig(
            port, host, tls, certChain, privateKey, inboundLimit(settings), drainSeconds)
        .withHealthPort(healthPort == null ? GrpcServerConfig.NO_HEALTH_PORT : healthPort);
  }

  /**
   * The inbound message limit in force with {@code settings}: as configured, or derived from the
   * body limit so that a BUFFERED body up to it arrives whole and one over it gets 413, never a
   * gRPC RESOURCE_EXHAUSTED.
   *
   * @throws IllegalArgumentException when the configured value cannot carry a BUFFERED body of
   *     {@code extProc.maxBodyBytes}
   */
  public int inboundLimit(ExtProcSettings settings) {
    long needed = settings.maxBodyBytes() + MESSAGE_HEADROOM_BYTES;
    if (maxInboundMessageBytes == null) {
      if (needed > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "extProc.maxBodyBytes: "
                + settings.maxBodyBytes()
                + " (expected <= "
                + (Integer.MAX_VALUE - MESSAGE_HEADROOM_BYTES)
                + ": a gRPC message holds at most 2 GiB)");
      }
      return (int) Math.max(GrpcServerConfig.DEFAULT_MAX_INBOUND_MESSAGE_BYTES, needed);
    }
    if (settings.requestBodyMode() == BodyMode.BUFFERED && maxInboundMessageBytes < needed) {
      throw new IllegalArgumentException(
          "grpc.maxInboundMessageBytes: "
              + maxInboundMessageBytes
              + " (expected >= extProc.maxBodyBytes + "
              + MESSAGE_HEADROOM_BYTES
              + " = "
              + needed
              + ": Envoy sends a BUFFERED body in one message; leave it unset to derive it)");
    }
    return maxInboundMessageBytes;
  }

  private static GrpcServerConfig serverConfig(
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

  public GrpcSection withHost(String newHost) {
    return new GrpcSection(
        port,
        newHost,
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
