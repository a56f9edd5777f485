package dev.pointsman.runtime;

import io.grpc.util.AdvancedTlsX509KeyManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A certificate chain and private key read from PEM files and read again whenever their contents
 * change, for TLS handshakes from then on: grpc-java's {@link AdvancedTlsX509KeyManager} holds the
 * pair and is asked for it at every handshake, so connections already open (and their streams) are
 * untouched and new ones get the new certificate.
 *
 * <p>Changes are found by comparing the files' contents, not their modification times: Kubernetes
 * updates a Secret volume by swapping the {@code ..data} symlink, which leaves the paths and can
 * leave the times unchanged. A new pair is applied only when both parse and the key matches the
 * leaf certificate (it signs a challenge the certificate's public key verifies). Anything else (an
 * unreadable or half-written file, a key of another certificate, which the swap of two files read
 * one after the other can also show for one check) keeps the pair in use, is logged once at WARN
 * and counted once per distinct content; the next check tries again.
 *
 * <p>Thread-safe: {@link #check()} is synchronized; the key manager swaps atomically.
 */
public final class CertificateReloader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CertificateReloader.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** What one {@link #check()} did. */
  public enum Outcome {
    /** The files hold the pair in use. */
    UNCHANGED,
    /** A new, valid pair is in use from the next handshake on. */
    RELOADED,
    /** The files changed but hold no usable pair; the previous pair stays in use. */
    REJECTED
  }

  private final Path certChain;
  private final Path privateKey;
  private final AdvancedTlsX509KeyManager keyManager = new AdvancedTlsX509KeyManager();
  private final AtomicLong reloads = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private byte[] appliedContents;
  private byte[] rejectedContents;
  private volatile String certificatePem;
  private ScheduledFuture<?> schedule;

  /**
   * Reads the pair once.
   *
   * @throws UncheckedIOException naming the path when a file cannot be read
   * @throws IllegalArgumentException when the files hold no usable pair
   */
  public CertificateReloader(Path certChain, Path privateKey) {
    this.certChain = Objects.requireNonNull(certChain, "certChain");
    this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
    String keyPem = read("tls.privateKey", privateKey);
    String chainPem = read("tls.certChain", certChain);
    apply(Pair.parse(chainPem, keyPem), contents(chainPem, keyPem));
  }

  /** The manager to build TLS contexts with; it always holds the pair in use. */
  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  /** The chain in use, as PEM. */
  public String certificatePem() {
    return certificatePem;
  }

  /** Pairs applied after the first. */
  public long reloads() {
    return reloads.get();
  }

  /** Changed file contents that held no usable pair, each distinct content counted once. */
  public long failures() {
    return failures.get();
  }

  /** Reads the files and applies a changed, valid pair. Never throws. */
  public synchronized Outcome check() {
    String chainPem;
    String keyPem;
    try {
      chainPem = read("tls.certChain", certChain);
      keyPem = read("tls.privateKey", privateKey);
    } catch (UncheckedIOException e) {
      return reject(null, e.getMessage());
    }
    byte[] contents = contents(chainPem, keyPem);
    if (Arrays.equals(contents, appliedContents)) {
      return Outcome.UNCHANGED;
    }
    if (Arrays.equals(contents, rejectedContents)) {
      return Outcome.REJECTED;
    }
    Pair pair;
    try {
      pair = Pair.parse(chainPem, keyPem);
    } catch (RuntimeException e) { // the PEM decoders throw more than IllegalArgumentException
      return reject(contents, e.toString());
    }
    apply(pair, contents);
    reloads.incrementAndGet();
    LOG.info(
        "tls: certificate reloaded from {} (subject {}, expires {})",
        certChain,
        pair.chain().getFirst().getSubjectX500Principal().getName(),
        pair.chain().getFirst().getNotAfter().toInstant());
    return Outcome.RELOADED;
  }

  /** Checks every {@code period} on {@code executor} until closed. */
  public synchronized CertificateReloader start(
      ScheduledExecutorService executor, Duration period) {
    if (schedule != null) {
      throw new IllegalStateException("tls reloader: already started (expected once)");
    }
    long nanos = period.toNanos();
    schedule = executor.scheduleWithFixedDelay(this::check, nanos, nanos, TimeUnit.NANOSECONDS);
    return this;
  }

  @Override
  public synchronized void close() {
    if (schedule != null) {
      schedule.cancel(false);
    }
  }

  private Outcome reject(byte[] contents, String why) {
    if (contents == null || !Arrays.equals(contents, rejectedContents)) {
      rejectedContents = contents;
      failures.incrementAndGet();
      LOG.warn(
          "tls: new certificate in {} / {} not used, keeping the previous one: {}",
          certChain,
          privateKey,
          why);
    }
    return Outcome.REJECTED;
  }

  private void apply(Pair pair, byte[] contents) {
    keyManager.updateIdentityCredentials(pair.chain().toArray(X509Certificate[]::new), pair.key());
    var pem = new StringBuilder();
    pair.chain().forEach(c -> pem.append(Pem.encode(c)));
    certificatePem = pem.toString();
    appliedContents = contents;
    rejectedContents = null;
  }

  private static byte[] contents(String chainPem, String keyPem) {
    return (chainPem + "\u0000" + keyPem).getBytes(StandardCharsets.UTF_8);
  }

  private static String read(String name, Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": cannot read " + path + " (" + e + ")", e);
    }
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
