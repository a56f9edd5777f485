package dev.pointsman.gateway.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.config.PickerSection;
import io.grpc.Status;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.NotSslRecordException;
import java.net.ConnectException;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PickerTroubleTest {
  private static final PickerSection PICKER = PickerSection.DEFAULTS;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "trust    | its TLS certificate is not trusted | picker.caFile",
        "plain    | it did not answer TLS              | picker.tls: plaintext",
        "refused  | connection refused                 | listens on picker.address",
        "timeout  | connect timed out                  | picker.address is reachable",
      })
  void saysWhatFailedAndWhatToCheckInOneLine(String kind, String what, String check) {
    Throwable cause =
        switch (kind) {
          case "trust" ->
              new SSLHandshakeException(
                  "PKIX path building failed: unable to find valid certification path");
          case "plain" -> new NotSslRecordException("not an SSL/TLS record: 000012");
          case "refused" ->
              new RuntimeException(new ConnectException("Connection refused: /127.0.0.1:9002"));
          default -> new ConnectTimeoutException("connection timed out after 1000 ms");
        };

    String line = PickerTrouble.describe(PICKER, Status.UNAVAILABLE.withCause(cause));

    assertThat(line)
        .startsWith("cannot use the endpoint picker at 127.0.0.1:9002: ")
        .contains(what)
        .contains(check)
        .doesNotContain("\n");
  }

  @Test
  void anUnexpectedStatusIsNamed() {
    String line = PickerTrouble.describe(PICKER, Status.INTERNAL.withDescription("stream broke"));

    assertThat(line).contains("INTERNAL (stream broke)").contains("picker's log");
  }

  @Test
  void reportsAtMostOnceAnIntervalAndCountsTheRest() {
    AtomicLong now = new AtomicLong(1_000);
    PickerTrouble trouble = new PickerTrouble(PICKER, now::get);
    Status refused = Status.UNAVAILABLE.withCause(new ConnectException("Connection refused"));

    assertThat(trouble.report(refused)).contains("connection refused");
    assertThat(trouble.report(refused)).isNull();
    assertThat(trouble.report(refused)).isNull();
    now.addAndGet(PickerTrouble.INTERVAL_NANOS);

    assertThat(trouble.report(refused)).endsWith("(2 more failures since last said)");
  }

  @Test
  void cancelledIsNotAFailure() {
    PickerTrouble trouble = new PickerTrouble(PICKER, () -> 0);

    assertThat(trouble.report(Status.CANCELLED)).isNull();
    assertThat(trouble.report(Status.OK)).isNull();
  }
}
