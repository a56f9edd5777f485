package dev.pointsman.runtime;

import io.grpc.util.AdvancedTlsX509KeyManager;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A certificate chain and private key read from PEM files and read again whenever their contents
 * change (see {@link PemFilesReloader}), for TLS handshakes from then on: grpc-java's {@link
 * AdvancedTlsX509KeyManager} holds the pair and is asked for it at every handshake, so connections
 * already open (and their streams) are untouched and new ones get the new certificate.
 *
 * <p>A new pair is applied only when both parse and the key matches the leaf certificate (it signs
 * a challenge the certificate's public key verifies). Anything else (an unreadable or half-written
 * file, a key of another certificate, which the swap of two files read one after the other can also
 * show for one check) keeps the pair in use.
 *
 * <p>Thread-safe: {@link #check()} is synchronized; the key manager swaps atomically.
 */
public final class CertificateReloader extends PemFilesReloader {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final AdvancedTlsX509KeyManager keyManager = new AdvancedTlsX509KeyManager();
  private volatile String certificatePem;

  /**
   * Reads the pair once.
   *
   * @throws UncheckedIOException naming the path when a file cannot be read
   * @throws IllegalArgumentException when the files hold no usable pair
   */
  public CertificateReloader(Path certChain, Path privateKey) {
    super(
        List.of(
            Map.entry("tls.privateKey", Objects.requireNonNull(privateKey, "privateKey")),
            Map.entry("tls.certChain", Objects.requireNonNull(certChain, "certChain"))));
    load();
  }

  /** The manager to build TLS contexts with; it always holds the pair in use. */
  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  /** The chain in use, as PEM. */
  public String certificatePem() {
    return certificatePem;
  }

  @Override
  String apply(List<String> contents) {
    Pair pair = Pair.parse(contents.get(1), contents.get(0)); // key first: start names it first
    keyManager.updateIdentityCredentials(pair.chain().toArray(X509Certificate[]::new), pair.key());
    var pem = new StringBuilder();
    pair.chain().forEach(c -> pem.append(Pem.encode(c)));
    certificatePem = pem.toString();
    X509Certificate leaf = pair.chain().getFirst();
    return "certificate "
        + leaf.getSubjectX500Principal().getName()
        + " (expires "
        + leaf.getNotAfter().toInstant()
        + ")";
  }

  /** A chain and the key of its leaf. */
  record Pair(List<X509Certificate> chain, PrivateKey key) {
    static Pair parse(String chainPem, String keyPem) {
      List<X509Certificate> chain = Pem.readCertificates(chainPem);
      PrivateKey key;
      try {
        key = Pem.readPrivateKey(keyPem);
      } catch (IllegalArgumentException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("unreadable private key: " + e.getMessage(), e);
      }
      requireMatching(chain.getFirst(), key);
      return new Pair(chain, key);
    }

    private static void requireMatching(X509Certificate leaf, PrivateKey key) {
      String algorithm =
          switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            default -> key.getAlgorithm(); // Ed25519, Ed448
          };
      byte[] challenge = new byte[32];
      RANDOM.nextBytes(challenge);
      boolean matches;
      try {
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(challenge);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(leaf.getPublicKey());
        verifier.update(challenge);
        matches = verifier.verify(signature);
      } catch (GeneralSecurityException e) {
        matches = false;
      }
      if (!matches) {
        throw new IllegalArgumentException(
            "tls: the private key does not match the certificate "
                + leaf.getSubjectX500Principal().getName()
                + " (expected the key of the chain's first certificate)");
      }
    }
  }
}
