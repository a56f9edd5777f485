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
 * @param host bind address, default loopback ({@code 127.0.0.1}); {@code picker --kubernetes} and
 *     the Helm chart bind {@code 0.0.0.0}
 * @param tls {@code self-signed} (default), {@code files} or {@code plaintext}
 * @param certChain PEM certificate chain, with {@code tls: files}
 * @param privateKey PEM private key, with {@code tls: files}
 * @param maxInboundMessageBytes largest ext_proc message accepted
 * @param drainSeconds how long shutdown waits for streams in flight
 */
public record GrpcSection(
    Integer port,
    String host,
    String tls,
    String certChain,
    String privateKey,
    Integer maxInboundMessageBytes,
    Integer drainSeconds) {

  public static final GrpcSection DEFAULTS =
      new GrpcSection(null, null, null, null, null, null, null);

  public GrpcSection {
    port = port == null ? 9002 : port;
    host = host == null ? "127.0.0.1" : host;
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
    serverConfig(port, host, tls, certChain, privateKey, maxInboundMessageBytes, drainSeconds);
  }

  public GrpcServerConfig toServerConfig() {
    return serverConfig(
        port, host, tls, certChain, privateKey, maxInboundMessageBytes, drainSeconds);
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
        newPort, host, tls, certChain, privateKey, maxInboundMessageBytes, drainSeconds);
  }

  public GrpcSection withHost(String newHost) {
    return new GrpcSection(
        port, newHost, tls, certChain, privateKey, maxInboundMessageBytes, drainSeconds);
  }

  public GrpcSection withTls(String newTls) {
    return new GrpcSection(
        port, host, newTls, certChain, privateKey, maxInboundMessageBytes, drainSeconds);
  }
}
