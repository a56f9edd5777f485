package dev.pointsman.picker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FlowControlConfigTest {
  private static final String POOL =
      "pools: [{name: p, models: [m], endpoints: [{address: '10.0.0.1:8000'}]}]\n";

  @Test
  void offByDefaultWithItsDefaults() {
    FlowControlSection f = PickerConfig.parse(POOL).flowControl();

    assertThat(f.enabled()).isFalse();
    assertThat(f.headers()).isNull();
    assertThat(f.maxQueued()).isEqualTo(1000);
    assertThat(f.ttlMillis()).isEqualTo(30_000);
    assertThat(f.fairnessHeader()).isEqualTo("x-gateway-inference-fairness-id");
    assertThat(f.deadlineHeader()).isEqualTo("x-slo-ttft-ms");
  }

  @Test
  void readsItsSection() {
    FlowControlSection f =
        PickerConfig.parse(
                POOL
                    + "flowControl: {enabled: true, maxQueued: 50, maxQueuedBytes: 1000,"
                    + " ttlMillis: 2000, fairnessHeader: x-tenant, deadlineHeader: x-ttft}\n")
            .flowControl();

    assertThat(f.limits().maxQueued()).isEqualTo(50);
    assertThat(f.limits().maxQueuedBytes()).isEqualTo(1000);
    assertThat(f.limits().ttlNanos()).isEqualTo(2_000_000_000L);
    assertThat(f.headers().fairness()).isEqualTo("x-tenant");
    assertThat(f.headers().deadline()).isEqualTo("x-ttft");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "flowControl: {maxQueued: -1} | flowControl.maxQueued: -1 (expected >= 1)",
        "flowControl: {maxQueuedBytes: 0} | flowControl.maxQueuedBytes: 0 (expected >= 1)",
        "flowControl: {ttlMillis: 0} | flowControl.ttlMillis: 0 (expected 1..3600000)",
        "flowControl: {fairnessHeader: 'X Tenant'} | flowControl.fairnessHeader: 'X Tenant'",
        "flowControl: {enabled: true}\\nextProc: {requestBodyMode: BUFFERED} | flowControl.enabled:"
            + " true (expected extProc.requestBodyMode FULL_DUPLEX_STREAMED)",
      })
  void badValuesNameTheirPath(String yaml, String message) {
    assertThatThrownBy(() -> PickerConfig.parse(POOL + yaml.replace("\\n", "\n")))
        .hasMessageContaining(message);
  }
}
