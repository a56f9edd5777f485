package dev.pointsman.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.runtime.PemFilesReloader.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trusted-certificate file read again on change; a file without a certificate keeps the old. */
class TrustReloaderTest {
  private static final SelfSigned A = SelfSigned.generate(List.of());
  private static final SelfSigned B = SelfSigned.generate(List.of());

  @TempDir Path dir;

  @Test
  void aChangedFileIsTrustedFromTheNextHandshakeAndGarbageKeepsTheOld() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.crt"), A.certificatePem());
    try (var trust = new TrustReloader("picker.caFile", ca)) {
      assertThat(trust.trustManager().getAcceptedIssuers()).containsExactly(A.certificate());
      assertThat(trust.check()).isEqualTo(Outcome.UNCHANGED);

      Files.writeString(ca, "-----BEGIN CERTIFICATE-----\nhalf\n");
      assertThat(trust.check()).isEqualTo(Outcome.REJECTED);
      assertThat(trust.check()).isEqualTo(Outcome.REJECTED);
      Files.delete(ca);
      assertThat(trust.check()).isEqualTo(Outcome.REJECTED);
      assertThat(trust.failures()).isEqualTo(2);
      assertThat(trust.trustManager().getAcceptedIssuers()).containsExactly(A.certificate());

      Files.writeString(ca, A.certificatePem() + B.certificatePem());
      assertThat(trust.check()).isEqualTo(Outcome.RELOADED);
      assertThat(trust.trustManager().getAcceptedIssuers())
          .containsExactlyInAnyOrder(A.certificate(), B.certificate());
      assertThat(trust.reloads()).isEqualTo(1);
    }
  }

  @Test
  void aFileWithoutACertificateIsRefusedAtStart() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.crt"), "not a certificate\n");
    assertThatThrownBy(() -> new TrustReloader("picker.caFile", ca))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected a PEM chain");
  }
}
