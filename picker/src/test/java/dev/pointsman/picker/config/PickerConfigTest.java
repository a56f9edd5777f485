package dev.pointsman.picker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.extproc.BodyMode;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.extproc.PickerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PickerConfigTest {
  private static final String POOL =
      "pools: [{name: a, models: [m], endpoints: [{address: '10.0.0.1:8000'}]}]\n";

  @Test
  void everySectionDefaults() {
    PickerConfig c = PickerConfig.parse(POOL);
    assertThat(c.grpc().port()).isEqualTo(9002);
    assertThat(c.grpc().tls()).isEqualTo("self-signed");
    assertThat(c.admin().port()).isEqualTo(9090);
    assertThat(c.extProcSettings().requestBodyMode()).isEqualTo(BodyMode.FULL_DUPLEX_STREAMED);
    assertThat(c.scrape().intervalMillis()).isEqualTo(50);
    assertThat(c.modelsConfig().models())
        .singleElement()
        .satisfies(m -> assertThat(m.name()).isEqualTo("m"));
  }

  @Test
  void protocolAndShutdownDefaultToOriginalDstNoHooksAndATwelveSecondGrace() {
    PickerConfig c = PickerConfig.parse(POOL);
    assertThat(c.pickerOptions())
        .isEqualTo(new PickerOptions(PickerOptions.DataPlane.ORIGINAL_DST, false));
    assertThat(c.shutdown().grace()).isEqualTo(java.time.Duration.ofSeconds(12));
  }

  @Test
  void protocolAndShutdownAreRead() {
    PickerConfig c =
        PickerConfig.parse(
            POOL
                + "protocol: {dataPlane: override-host, conformanceTestHooks: true}\n"
                + "shutdown: {graceSeconds: 0}\n");
    assertThat(c.pickerOptions())
        .isEqualTo(new PickerOptions(PickerOptions.DataPlane.OVERRIDE_HOST, true));
    assertThat(c.shutdown().grace()).isZero();
  }

  @Test
  void theFileMayListNoPoolsButLocalModeNeedsOne() {
    PickerConfig empty = PickerConfig.parse("{}");
    assertThat(empty.pools()).isEmpty();
    assertThatThrownBy(() -> new PickerApp(empty, null))
        .hasMessageContaining("pools: [] (expected at least one pool in local mode)");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "grpc: {tls: sometimes} | grpc.tls: 'sometimes' (expected self-signed, files or plaintext)",
        "grpc: {port: 70000} | grpc.port: 70000 (expected 0..65535)",
        "extProc: {requestBodyMode: STREAMED} | extProc.requestBodyMode: 'STREAMED'",
        "scrape: {intervalMillis: 0} | scrape.interval",
        "pools: [{name: a, endpoints: [{address: nope}]}] | pools[0].endpoints[0].address: 'nope' (expected host:port)",
        "pools: [{name: a, engine: tgi}] | pools[0].engine: 'tgi'",
        "pools: [{name: a, policy: {scorers: [{type: qeue-scorer, weight: 1}]}}] | pools[0].policy.scorers[0].type: 'qeue-scorer'",
        "pools: [{name: a}, {name: a}] | pools[1].name: 'a' (already used by another pool)",
        "bogus: 1 | bogus: unknown property",
        "protocol: {dataPlane: sideways} | protocol.dataPlane: 'sideways' (expected original-dst or override-host)",
        "shutdown: {graceSeconds: -1} | shutdown.graceSeconds: -1 (expected 0..300)",
      })
  void errorsNameThePathOfTheBadValue(String yaml, String message) {
    assertThatThrownBy(() -> PickerConfig.parse(yaml))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }
}
