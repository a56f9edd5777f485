package dev.pointsman.testing;

import dev.pointsman.runtime.Pem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority for mutual-TLS tests, as cert-manager would make one: a CA
 * certificate, and leaf certificates it signs for servers ({@code localhost}, {@code 127.0.0.1}) or
 * clients, each written as PEM files in a folder.
 */
public final class TestCa {
  private final Path dir;
  private final KeyPair keys;
  private final X509Certificate certificate;
  private final X500Name name;

  /** A PEM certificate and its PEM private key. */
  public record Issued(Path certChain, Path privateKey) {}

  private TestCa(Path dir, String cn) {
    this.dir = dir;
    this.keys = keyPair();
    this.name = new X500Name("CN=" + cn);
    this.certificate =
        sign(name, keys, new BasicConstraints(true), KeyUsage.keyCertSign, null, null);
    write("ca-" + cn + ".pem", Pem.encode(certificate));
  }

  /** A new CA named {@code cn}, writing into {@code dir}. */
  public static TestCa create(Path dir, String cn) {
    return new TestCa(dir, cn);
  }

  /** The CA certificate's PEM file: what a peer trusts. */
  public Path caFile() {
    return dir.resolve("ca-" + name.toString().substring(3) + ".pem");
  }

  /** A server certificate for {@code localhost} and {@code 127.0.0.1}. */
  public Issued server(String cn) {
    return issue(cn, KeyPurposeId.id_kp_serverAuth);
  }

  /** A client certificate. */
  public Issued client(String cn) {
    return issue(cn, KeyPurposeId.id_kp_clientAuth);
  }

  private Issued issue(String cn, KeyPurposeId purpose) {
    KeyPair leaf = keyPair();
    GeneralNames sans =
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.dNSName, "localhost"),
              new GeneralName(GeneralName.iPAddress, "127.0.0.1")
            });
    X509Certificate cert =
        sign(
            new X500Name("CN=" + cn),
            leaf,
            new BasicConstraints(false),
            KeyUsage.digitalSignature,
            purpose,
            sans);
    return new Issued(
        write(cn + ".crt", Pem.encode(cert)), write(cn + ".key", Pem.encode(leaf.getPrivate())));
  }

  private X509Certificate sign(
      X500Name subject,
      KeyPair subjectKeys,
      BasicConstraints constraints,
      int usage,
      KeyPurposeId purpose,
      GeneralNames sans) {
    try {
      Instant now = Instant.now();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              name == null ? subject : name,
              new BigInteger(64, new SecureRandom()).setBit(63),
              Date.from(now.minus(Duration.ofHours(1))),
              Date.from(now.plus(Duration.ofDays(1))),
              subject,
              subjectKeys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, constraints);
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(usage));
      if (purpose != null) {
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      }
      if (sans != null) {
        builder.addExtension(Extension.subjectAlternativeName, false, sans);
      }
      var signer = new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate());
      return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
    } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
      throw new IllegalStateException("test CA: cannot sign " + subject + ": " + e, e);
    }
  }

  private Path write(String file, String pem) {
    try {
      return Files.writeString(dir.resolve(file), pem);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static KeyPair keyPair() {
    try {
      var generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
