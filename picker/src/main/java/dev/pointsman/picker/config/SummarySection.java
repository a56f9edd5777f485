package dev.pointsman.picker.config;

import dev.pointsman.runtime.GrpcServerConfig;
import dev.pointsman.runtime.Tls;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The cluster summary for the fleet tier (off by default): served on a listener of its own, over
 * mutual TLS only — a fleet tier must present a certificate that {@code clientCa} verifies. See
 * docs/fleet.md.
 *
 * @param enabled publish a summary (default false)
 * @param cluster this cluster's name in the summary (default {@code default})
 * @param host bind address (default {@code 127.0.0.1})
 * @param port TCP port (default 9004; 0 picks a free one)
 * @param certChain PEM certificate chain the listener presents (required when enabled)
 * @param privateKey its PEM private key (required when enabled)
 * @param clientCa PEM certificate(s) a reader's client certificate must chain to (required)
 * @param intervalMillis how often the summary is made again (default 250, 10..60000)
 * @param referencePromptTokens the prompt size the summary's TTFT prediction is for (default 1000)
 * @param hotPrefixes prefix digests advertised per pool (default 256, 0..100000)
 */
public record SummarySection(
    Boolean enabled,
    String cluster,
    String host,
    Integer port,
    String certChain,
    String privateKey,
    String clientCa,
    Integer intervalMillis,
    Integer referencePromptTokens,
    Integer hotPrefixes) {

  public static final SummarySection DEFAULTS =
      new SummarySection(null, null, null, null, null, null, null, null, null, null);

  public SummarySection {
    enabled = enabled != null && enabled;
    cluster = cluster == null ? "default" : cluster;
    host = host == null ? "127.0.0.1" : host;
    port = port == null ? 9004 : port;
    intervalMillis = intervalMillis == null ? 250 : intervalMillis;
    referencePromptTokens = referencePromptTokens == null ? 1000 : referencePromptTokens;
    hotPrefixes = hotPrefixes == null ? 256 : hotPrefixes;
    if (cluster.isBlank()) {
      throw new IllegalArgumentException("cluster: '' (expected this cluster's name)");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port: " + port + " (expected 0..65535)");
    }
    if (intervalMillis < 10 || intervalMillis > 60_000) {
      throw new IllegalArgumentException(
          "intervalMillis: " + intervalMillis + " (expected 10..60000)");
    }
    if (referencePromptTokens < 1 || referencePromptTokens > 1_000_000) {
      throw new IllegalArgumentException(
          "referencePromptTokens: " + referencePromptTokens + " (expected 1..1000000)");
    }
    if (hotPrefixes < 0 || hotPrefixes > 100_000) {
      throw new IllegalArgumentException("hotPrefixes: " + hotPrefixes + " (expected 0..100000)");
    }
    if (enabled && (certChain == null || privateKey == null || clientCa == null)) {
      throw new IllegalArgumentException(
          "enabled: true (expected certChain, privateKey and clientCa to name PEM files: the"
              + " summary is served over mutual TLS only)");
    }
  }

  /** The listener's settings: mutual TLS, small messages, a short drain. */
  public GrpcServerConfig toServerConfig() {
    return new GrpcServerConfig(
        port,
        host,
        Tls.mutual(Path.of(certChain), Path.of(privateKey), Path.of(clientCa)),
        1 << 20,
        GrpcServerConfig.DEFAULT_PERMIT_KEEPALIVE_TIME,
        Duration.ofSeconds(1));
  }
}
