package dev.pointsman.bench.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The load harness's command line: a hold belongs to a closed loop only. */
class ExtProcLoadOptionsTest {
  @Test
  void aHoldNeedsConcurrentStreams() {
    ExtProcLoad.Options o =
        ExtProcLoad.Options.parse(
            new String[] {"--concurrency", "150", "--hold-ms", "5000", "0", "30", "225280"});
    assertThat(o.concurrency()).isEqualTo(150);
    assertThat(o.holdMillis()).isEqualTo(5000);
    assertThat(o.bodyBytes()).isEqualTo(225_280);
    assertThat(ExtProcLoad.Options.parse(new String[] {"100", "10", "4096"}).holdMillis()).isZero();

    assertThatThrownBy(
            () ->
                ExtProcLoad.Options.parse(new String[] {"--hold-ms", "5000", "100", "10", "4096"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only with --concurrency");
    assertThatThrownBy(
            () ->
                ExtProcLoad.Options.parse(
                    new String[] {"--concurrency", "4", "--hold-ms", "-1", "0", "10", "4096"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected >= 0");
  }
}
