package dev.pointsman.cli.certs;

import dev.pointsman.runtime.Pem;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.List;
import java.util.Objects;
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
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A private CA and a server certificate it signed, as the PEM texts of a {@code kubernetes.io/tls}
 * Secret: {@code tls.crt}, {@code tls.key} (PKCS#8) and {@code ca.crt}. EC P-256 keys; the CA's key
 * is not kept.
 *
 * @param caPem the CA certificate (what clients trust)
 * @param certificatePem the server certificate, whose SANs are the DNS names
 * @param privateKeyPem the server certificate's key
 */
record TlsBundle(String caPem, String certificatePem, String privateKeyPem) {
  private static final Duration BACKDATE = Duration.ofHours(1);

  TlsBundle {
    Objects.requireNonNull(caPem, "caPem");
    Objects.requireNonNull(certificatePem, "certificatePem");
    Objects.requireNonNull(privateKeyPem, "privateKeyPem");
  }

  /** A new CA named {@code caName} and a certificate for {@code dnsNames}, valid {@code days}. */
  static TlsBundle generate(String caName, List<String> dnsNames, int days, InstantSource clock) {
    if (dnsNames.isEmpty() || dnsNames.stream().anyMatch(n -> n == null || n.isBlank())) {
      throw new IllegalArgumentException("dns: " + dnsNames + " (expected one or more names)");
    }
    if (days < 1) {
      throw new IllegalArgumentException("days: " + days + " (expected >= 1)");
    }
    Instant from = clock.instant().minus(BACKDATE);
    Instant until = clock.instant().plus(Duration.ofDays(days));
    try {
      KeyPair caKeys = ecKeys();
      KeyPair keys = ecKeys();
      var caSubject = new X500Name("CN=" + escape(caName));
      X509Certificate ca = sign(ca(caSubject, caKeys, from, until), caKeys);
      X509Certificate cert = sign(server(caSubject, ca, keys, dnsNames, from, until), caKeys);
      return new TlsBundle(Pem.encode(ca), Pem.encode(cert), Pem.encode(keys.getPrivate()));
    } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
      throw new IllegalStateException("cannot generate certificates: " + e, e);
    }
  }

  private static X509v3CertificateBuilder ca(
      X500Name subject, KeyPair keys, Instant from, Instant until)
      throws GeneralSecurityException, IOException {
    var b =
        new JcaX509v3CertificateBuilder(
            subject, serial(), Date.from(from), Date.from(until), subject, keys.getPublic());
    var ext = new JcaX509ExtensionUtils();
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    b.addExtension(
        Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
    return b;
  }

  private static X509v3CertificateBuilder server(
      X500Name issuer,
      X509Certificate ca,
      KeyPair keys,
      List<String> dnsNames,
      Instant from,
      Instant until)
      throws GeneralSecurityException, IOException {
    var subject = new X500Name("CN=" + escape(dnsNames.getFirst()));
    var b =
        new JcaX509v3CertificateBuilder(
            issuer, serial(), Date.from(from), Date.from(until), subject, keys.getPublic());
    var ext = new JcaX509ExtensionUtils();
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    b.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
    b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
    b.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            dnsNames.stream()
                .map(n -> new GeneralName(GeneralName.dNSName, n.strip()))
                .toArray(GeneralName[]::new)));
    return b;
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws GeneralSecurityException, OperatorCreationException {
    var contentSigner = new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate());
    return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
  }

  private static KeyPair ecKeys() throws GeneralSecurityException {
    var generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static BigInteger serial() {
    return new BigInteger(64, new SecureRandom()).setBit(63);
  }

  private static String escape(String name) {
    return name.replaceAll("[,+=\"\\\\<>;]", "_");
  }
}
