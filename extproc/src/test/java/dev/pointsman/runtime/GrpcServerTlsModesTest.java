package dev.pointsman.runtime;

import static io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GrpcServerTlsModesTest {
  private static final SelfSigned CERT = SelfSigned.generate(List.of());

  @TempDir Path dir;

  @Test
  void servesWithPkcs8KeyFromFiles() throws Exception {
    Path cert = write("cert.pem", CERT.certificatePem());
    Path key = write("key.pem", CERT.privateKeyPem());

    assertServesOverTls(Tls.files(cert, key));
  }

  @Test
  void servesWithSec1EcKeyFromFiles() throws Exception {
    String sec1 = traditionalPem(CERT);
    assertThat(sec1).startsWith("-----BEGIN EC PRIVATE KEY-----");

    assertServesOverTls(
        Tls.files(write("cert.pem", CERT.certificatePem()), write("key.pem", sec1)));
  }

  @Test
  void servesPlaintextWhenAskedTo() {
    var config = GrpcServerConfig.defaults(0).withHost("127.0.0.1").withTls(Tls.plaintext());
    try (var server = new GrpcServer(config, List.of(), List.of()).start()) {
      ManagedChannel channel = Clients.plaintext(server.port());
      try {
        assertThat(server.certificatePem()).isEmpty();
        assertThat(Clients.check(channel, "liveness")).isEqualTo(SERVING);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void plaintextClientCannotTalkToTlsServer() {
    var config = GrpcServerConfig.defaults(0).withHost("127.0.0.1");
    try (var server = new GrpcServer(config, List.of(), List.of()).start()) {
      ManagedChannel channel = Clients.plaintext(server.port());
      try {
        assertThatThrownBy(() -> Clients.check(channel, ""))
            .isInstanceOf(StatusRuntimeException.class);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void missingKeyFileFailsStartNamingThePath() {
    Path missing = dir.resolve("missing.pem");
    var config =
        GrpcServerConfig.defaults(0).withHost("127.0.0.1").withTls(Tls.files(missing, missing));
    try (var server = new GrpcServer(config, List.of(), List.of())) {
      assertThatThrownBy(server::start)
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("tls.privateKey")
          .hasMessageContaining(missing.toString());
    }
  }

  private void assertServesOverTls(Tls tls) throws Exception {
    var config = GrpcServerConfig.defaults(0).withHost("127.0.0.1").withTls(tls);
    try (var server = new GrpcServer(config, List.of(), List.of()).start()) {
      ManagedChannel channel = Clients.tls(server.port(), CERT.certificatePem(), "localhost");
      try {
        assertThat(server.certificatePem()).contains(CERT.certificatePem());
        assertThat(Clients.check(channel, "")).isEqualTo(SERVING);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  private Path write(String name, String content) throws Exception {
    return Files.writeString(dir.resolve(name), content);
  }

  /** The key as OpenSSL's traditional SEC1 {@code EC PRIVATE KEY}, curve named inside. */
  static String traditionalPem(SelfSigned selfSigned) throws Exception {
    var info = PrivateKeyInfo.getInstance(selfSigned.privateKey().getEncoded());
    var inner = ECPrivateKey.getInstance(info.parsePrivateKey());
    var sec1 = new ECPrivateKey(256, inner.getKey(), info.getPrivateKeyAlgorithm().getParameters());
    return Pem.encode("EC PRIVATE KEY", sec1.getEncoded());
  }
}
