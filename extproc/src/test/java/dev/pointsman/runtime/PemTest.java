package dev.pointsman.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringWriter;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;

class PemTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final SelfSigned CERT =
      SelfSigned.generate(List.of("picker.example", "10.0.0.7"), InstantSource.fixed(NOW));

  @Test
  void selfSignedCertificateHasSansAndOneYearValidity() throws Exception {
    X509Certificate certificate = CERT.certificate();

    assertThat(certificate.getSubjectAlternativeNames())
        .extracting(san -> (Object) san.get(1))
        .containsExactly("localhost", "127.0.0.1", "picker.example", "10.0.0.7");
    assertThat(certificate.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofDays(365)));
    assertThat(certificate.getNotBefore().toInstant()).isBefore(NOW);
    assertThat(certificate.getPublicKey().getAlgorithm()).isEqualTo("EC");
    certificate.verify(certificate.getPublicKey());
  }

  @Test
  void pkcs8KeyAndCertificateRoundTrip() {
    assertThat(CERT.privateKeyPem()).startsWith("-----BEGIN PRIVATE KEY-----\n");
    assertThat(Pem.readPrivateKey(CERT.privateKeyPem()).getEncoded())
        .isEqualTo(CERT.privateKey().getEncoded());
    assertThat(Pem.readCertificates(CERT.certificatePem() + CERT.certificatePem()))
        .containsExactly(CERT.certificate(), CERT.certificate());
  }

  @Test
  void readsPkcs1RsaKey() throws Exception {
    var generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    var key = generator.generateKeyPair().getPrivate();
    var out = new StringWriter();
    try (var writer = new JcaPEMWriter(out)) {
      writer.writeObject(key);
    }
    assertThat(out.toString()).startsWith("-----BEGIN RSA PRIVATE KEY-----");

    assertThat(Pem.readPrivateKey(out.toString()).getEncoded()).isEqualTo(key.getEncoded());
  }

  @Test
  void readsSec1EcKeyAfterEcParameters() throws Exception {
    String pem =
        "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
            + GrpcServerTlsModesTest.traditionalPem(CERT);

    var key = (ECPrivateKey) Pem.readPrivateKey(pem);

    assertThat(key.getS()).isEqualTo(((ECPrivateKey) CERT.privateKey()).getS());
    assertThat(key.getParams().getCurve())
        .isEqualTo(((ECPrivateKey) CERT.privateKey()).getParams().getCurve());
  }

  @Test
  void rejectsNonKeysAndEmptyInput() {
    assertThatThrownBy(() -> Pem.readPrivateKey(CERT.certificatePem()))
        .hasMessageContaining("unsupported key block")
        .hasMessageContaining("expected an unencrypted PKCS#8, PKCS#1 or SEC1 key");
    assertThatThrownBy(() -> Pem.readPrivateKey("")).hasMessageContaining("no private key block");
    assertThatThrownBy(() -> Pem.readCertificates("")).hasMessageContaining("expected a PEM chain");
  }
}
