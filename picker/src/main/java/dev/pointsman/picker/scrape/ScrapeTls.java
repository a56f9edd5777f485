package dev.pointsman.picker.scrape;

import dev.pointsman.runtime.TrustReloader;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

/**
 * How the scraper reaches endpoints that serve HTTPS (vLLM started with {@code --ssl-certfile} and
 * {@code --ssl-keyfile}): their metrics and their model listing are then read over TLS on the same
 * keep-alive connections. Off by default: the engines serve plain HTTP unless told otherwise.
 *
 * <p>The endpoints' certificates are verified against {@code caFile} when it is set, else against
 * the JVM's trusted authorities, unless {@code insecureSkipVerify}. The chain is verified, not the
 * name: the picker reaches endpoints by pod IP, which their certificates seldom name.
 *
 * @param enabled HTTPS to every endpoint (default false: plain HTTP)
 * @param caFile a PEM file of the certificates that issued the endpoints' (a CA bundle, or one
 *     self-signed certificate); read again when its contents change, for connections opened from
 *     then on
 * @param insecureSkipVerify accept any certificate: encryption without authentication (the
 *     Inference Extension's picker does so by default for its HTTPS scheme)
 */
public record ScrapeTls(Boolean enabled, String caFile, Boolean insecureSkipVerify) {

  /** Plain HTTP. */
  public static final ScrapeTls OFF = new ScrapeTls(null, null, null);

  public ScrapeTls {
    enabled = enabled != null && enabled;
    insecureSkipVerify = insecureSkipVerify != null && insecureSkipVerify;
    if (caFile != null && caFile.isBlank()) {
      throw new IllegalArgumentException("caFile: '' (expected a PEM file's path, or no caFile)");
    }
    if (!enabled && (caFile != null || insecureSkipVerify)) {
      throw new IllegalArgumentException(
          (caFile != null ? "caFile" : "insecureSkipVerify")
              + " is set but enabled is false (expected enabled: true for endpoints serving"
              + " HTTPS)");
    }
    if (caFile != null && insecureSkipVerify) {
      throw new IllegalArgumentException(
          "insecureSkipVerify: true with a caFile (expected one of them: the caFile verifies the"
              + " endpoints' certificates, insecureSkipVerify accepts any)");
    }
  }

  /**
   * The TLS client for these settings: the context new connections are made with and, with a {@code
   * caFile}, what keeps it in step with the file. Call only when {@link #enabled}.
   *
   * @throws IllegalArgumentException naming {@code scrape.tls.caFile} when it is missing or holds
   *     no certificate
   */
  public Client client() {
    if (!enabled) {
      throw new IllegalStateException("scrape.tls is not enabled");
    }
    TrustReloader trust = insecureSkipVerify || caFile == null ? null : trust(caFile);
    try {
      // the chain, not the name, whichever trust (Netty 4.2 would check the name by default)
      SslContextBuilder builder =
          SslContextBuilder.forClient().endpointIdentificationAlgorithm(null);
      if (insecureSkipVerify) {
        builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
      } else if (trust != null) {
        builder.trustManager(trust.trustManager());
      }
      return new Client(builder.build(), trust);
    } catch (SSLException e) {
      if (trust != null) {
        trust.close();
      }
      throw new IllegalArgumentException(
          "scrape.tls: cannot make a TLS client (" + e.getMessage() + ")", e);
    }
  }

  private static TrustReloader trust(String caFile) {
    if (!Files.isRegularFile(Path.of(caFile))) {
      throw new IllegalArgumentException(
          "scrape.tls.caFile: " + caFile + " does not exist (expected a PEM file)");
    }
    try {
      return new TrustReloader("scrape.tls.caFile", Path.of(caFile), false);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new IllegalArgumentException(
          "scrape.tls.caFile: unusable certificate (" + e.getMessage() + ")", e);
    }
  }

  /**
   * A TLS client: the context to open connections with, and the reloader of its {@code caFile}
   * (null without one).
   */
  public record Client(SslContext context, TrustReloader trust) implements AutoCloseable {
    @Override
    public void close() {
      if (trust != null) {
        trust.close();
      }
    }
  }
}
