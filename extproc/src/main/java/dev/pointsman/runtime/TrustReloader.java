package dev.pointsman.runtime;

import io.grpc.util.AdvancedTlsX509TrustManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The certificates a TLS client trusts (a CA bundle, or a server's self-signed certificate), read
 * from a PEM file and read again whenever its contents change (see {@link PemFilesReloader}):
 * grpc-java's {@link AdvancedTlsX509TrustManager} holds them and is asked at every handshake, so
 * connections already open (and their streams) are untouched and new ones are verified against the
 * new certificates, the server's name included. A file without a readable certificate keeps the
 * certificates in use.
 *
 * <p>Thread-safe: {@link #check()} is synchronized; the trust manager swaps atomically.
 */
public final class TrustReloader extends PemFilesReloader {
  private final AdvancedTlsX509TrustManager trustManager;

  /**
   * Reads the file once.
   *
   * @param name what errors call the file ({@code picker.caFile})
   * @throws UncheckedIOException naming the path when the file cannot be read
   * @throws IllegalArgumentException when it holds no usable certificate
   */
  public TrustReloader(String name, Path caFile) {
    this(name, caFile, true);
  }

  /**
   * Reads the file once.
   *
   * @param name what errors call the file ({@code tls.clientCa})
   * @param verifyHostName whether the peer's certificate must also name the host connected to (a
   *     client verifying a server); false for a server verifying its clients' certificates
   * @throws UncheckedIOException naming the path when the file cannot be read
   * @throws IllegalArgumentException when it holds no usable certificate
   */
  public TrustReloader(String name, Path caFile, boolean verifyHostName) {
    super(List.of(Map.entry(name, Objects.requireNonNull(caFile, "caFile"))));
    try {
      trustManager =
          AdvancedTlsX509TrustManager.newBuilder()
              .setVerification(
                  verifyHostName
                      ? AdvancedTlsX509TrustManager.Verification
                          .CERTIFICATE_AND_HOST_NAME_VERIFICATION
                      : AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION)
              .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("tls: cannot create a trust manager (" + e + ")", e);
    }
    load();
  }

  /** The manager to build TLS contexts with; it always holds the certificates in use. */
  public X509ExtendedTrustManager trustManager() {
    return trustManager;
  }

  @Override
  String apply(List<String> contents) {
    List<X509Certificate> certificates = Pem.readCertificates(contents.getFirst());
    try {
      trustManager.updateTrustCredentials(certificates.toArray(X509Certificate[]::new));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("unusable certificate: " + e.getMessage(), e);
    }
    return certificates.size()
        + " trusted certificate(s), first "
        + certificates.getFirst().getSubjectX500Principal().getName();
  }
}
