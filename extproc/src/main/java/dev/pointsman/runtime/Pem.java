package dev.pointsman.runtime;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * PEM encoding and decoding of certificates and private keys.
 *
 * <p>Private keys may be PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC1
 * ({@code EC PRIVATE KEY}, optionally preceded by {@code EC PARAMETERS}). Encrypted keys are
 * rejected.
 */
public final class Pem {
  private static final Base64.Encoder BASE64 =
      Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));

  private Pem() {}

  /** One PEM block of {@code type} (e.g. {@code CERTIFICATE}) around {@code der}. */
  public static String encode(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + BASE64.encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  /** A certificate as a {@code CERTIFICATE} block. */
  public static String encode(X509Certificate certificate) {
    try {
      return encode("CERTIFICATE", certificate.getEncoded());
    } catch (CertificateException e) {
      throw new IllegalArgumentException("certificate cannot be encoded: " + e.getMessage(), e);
    }
  }

  /** A private key as a PKCS#8 {@code PRIVATE KEY} block. */
  public static String encode(PrivateKey key) {
    return encode("PRIVATE KEY", key.getEncoded());
  }

  /** Every certificate in {@code pem}, in order; fails if there is none. */
  public static List<X509Certificate> readCertificates(String pem) {
    try {
      var factory = CertificateFactory.getInstance("X.509");
      var certificates =
          factory.generateCertificates(
              new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException("no CERTIFICATE block (expected a PEM chain)");
      }
      return certificates.stream().map(X509Certificate.class::cast).toList();
    } catch (CertificateException e) {
      throw new IllegalArgumentException(
          "unreadable certificate: " + e.getMessage() + " (expected a PEM chain)", e);
    }
  }

  /** The first private key in {@code pem}. */
  public static PrivateKey readPrivateKey(String pem) {
    try (var parser = new PEMParser(new StringReader(pem))) {
      var converter = new JcaPEMKeyConverter();
      for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
        switch (block) {
          case PrivateKeyInfo info -> {
            return converter.getPrivateKey(info);
          }
          case PEMKeyPair pair -> {
            return converter.getPrivateKey(pair.getPrivateKeyInfo());
          }
          case ASN1ObjectIdentifier ignoredEcParameters -> {}
          default ->
              throw new IllegalArgumentException(
                  "unsupported key block "
                      + block.getClass().getSimpleName()
                      + " (expected an unencrypted PKCS#8, PKCS#1 or SEC1 key)");
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("unreadable private key: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException("no private key block (expected PEM PRIVATE KEY)");
  }
}
