package dev.pointsman.runtime;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
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
 * A freshly generated EC P-256 key and self-signed X.509 server certificate, valid for one year,
 * whose SANs are {@code localhost}, {@code 127.0.0.1} and the caller's hostnames. Clients trust it
 * by trusting {@link #certificatePem()}.
 *
 * @param certificate the self-signed certificate
 * @param privateKey its private key
 */
public record SelfSigned(X509Certificate certificate, PrivateKey privateKey) {
  private static final Duration VALIDITY = Duration.ofDays(365);
  private static final Duration BACKDATE = Duration.ofHours(1);
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  public SelfSigned {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(privateKey, "privateKey");
  }

  /** A new key and certificate valid from now, for {@code hostnames} plus localhost. */
  public static SelfSigned generate(List<String> hostnames) {
    return generate(hostnames, InstantSource.system());
  }

  /** A new key and certificate valid from {@code clock.instant()} (backdated by one hour). */
  public static SelfSigned generate(List<String> hostnames, InstantSource clock) {
    try {
      var generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      KeyPair keys = generator.generateKeyPair();
      return new SelfSigned(sign(keys, sans(hostnames), clock.instant()), keys.getPrivate());
    } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
      throw new IllegalStateException("cannot generate a self-signed certificate: " + e, e);
    }
  }

  /** The certificate as PEM: what a client must trust. */
  public String certificatePem() {
    return Pem.encode(certificate);
  }

  /** The private key as PKCS#8 PEM. */
  public String privateKeyPem() {
    return Pem.encode(privateKey);
  }

  private static X509Certificate sign(KeyPair keys, List<String> sans, Instant now)
      throws GeneralSecurityException, OperatorCreationException, IOException {
    var subject = new X500Name("CN=" + sans.getFirst().replaceAll("[,+=\"\\\\<>;]", "_"));
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            subject,
            new BigInteger(64, new SecureRandom()).setBit(63),
            Date.from(now.minus(BACKDATE)),
            Date.from(now.plus(VALIDITY)),
            subject,
            keys.getPublic());
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
    builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    builder.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
    builder.addExtension(Extension.subjectAlternativeName, false, generalNames(sans));
    var signer = new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate());
    return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
  }

  private static List<String> sans(List<String> hostnames) {
    var all = new LinkedHashSet<String>();
    all.add("localhost");
    all.add("127.0.0.1");
    for (String host : hostnames) {
      if (host == null || host.isBlank()) {
        throw new IllegalArgumentException("hostname: '" + host + "' (expected a host or IP)");
      }
      all.add(host.strip());
    }
    return new ArrayList<>(all);
  }

  private static GeneralNames generalNames(List<String> sans) {
    return new GeneralNames(
        sans.stream()
            .map(
                san ->
                    new GeneralName(
                        isIpLiteral(san) ? GeneralName.iPAddress : GeneralName.dNSName, san))
            .toArray(GeneralName[]::new));
  }

  private static boolean isIpLiteral(String host) {
    return IPV4.matcher(host).matches() || host.indexOf(':') >= 0;
  }
}
