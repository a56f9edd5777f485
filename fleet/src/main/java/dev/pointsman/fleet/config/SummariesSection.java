package dev.pointsman.fleet.config;

import java.nio.file.Path;

/**
 * How the fleet reads the clusters' summaries: over mutual TLS, with a client certificate the
 * clusters' pickers trust ({@code summary.clientCa} there).
 *
 * @param intervalMillis how often each cluster's summary is read (default 250)
 * @param timeoutMillis the deadline of one read (default 1000)
 * @param certChain the fleet's client certificate chain (PEM)
 * @param privateKey its private key (PEM)
 * @param caFile the CA certificate(s) the pickers' summary certificates must chain to (PEM)
 */
public record SummariesSection(
    Integer intervalMillis,
    Integer timeoutMillis,
    String certChain,
    String privateKey,
    String caFile) {

  public SummariesSection {
    intervalMillis = intervalMillis == null ? 250 : intervalMillis;
    timeoutMillis = timeoutMillis == null ? 1000 : timeoutMillis;
    if (intervalMillis < 10 || intervalMillis > 60_000) {
      throw new IllegalArgumentException(
          "intervalMillis: " + intervalMillis + " (expected 10..60000)");
    }
    if (timeoutMillis < 1 || timeoutMillis > 60_000) {
      throw new IllegalArgumentException(
          "timeoutMillis: " + timeoutMillis + " (expected 1..60000)");
    }
    if (certChain == null || privateKey == null || caFile == null) {
      throw new IllegalArgumentException(
          "certChain, privateKey, caFile: "
              + certChain
              + ", "
              + privateKey
              + ", "
              + caFile
              + " (expected all three PEM files: summaries are read over mutual TLS only)");
    }
  }

  public Path certChainPath() {
    return Path.of(certChain);
  }

  public Path privateKeyPath() {
    return Path.of(privateKey);
  }

  public Path caFilePath() {
    return Path.of(caFile);
  }
}
