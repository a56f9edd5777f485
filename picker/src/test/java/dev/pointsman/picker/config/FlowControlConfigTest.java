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
    assertThat(f.queuedBytesTotal(1L << 30)).as("a quarter of a 1 GiB heap").isEqualTo(1L << 28);
  }

  @Test
  void readsItsSection() {
    FlowControlSection f =
        PickerConfig.parse(
                POOL
                    + "flowControl: {enabled: true, maxQueued: 50, maxQueuedBytes: 1000,"
                    + " maxQueuedBytesTotal: 1048576000, ttlMillis: 2000, fairnessHeader: x-tenant,"
                    + " deadlineHeader: x-ttft}\n")
            .flowControl();

    assertThat(f.limits().maxQueued()).isEqualTo(50);
    assertThat(f.limits().maxQueuedBytes()).isEqualTo(1000);
    assertThat(f.queuedBytesTotal(1L << 30)).isEqualTo(1000L << 20);
    assertThat(f.limits().ttlNanos()).isEqualTo(2_000_000_000L);
    assertThat(f.headers().fairness()).isEqualTo("x-tenant");
    assertThat(f.headers().deadline()).isEqualTo("x-ttft");
  }

  @Test
  void readsBudgets() {
    FlowControlSection f =
        PickerConfig.parse(
                POOL
                    + "flowControl:\n"
                    + "  enabled: true\n"
                    + "  budgets:\n"
                    + "    - {fairnessId: team-a, tokensPerMinute: 100000, requestsPerMinute: 600}\n"
                    + "    - {fairnessId: team-a, model: m, tokensPerMinute: 5000}\n")
            .flowControl();

    assertThat(f.budgets()).hasSize(2);
    assertThat(f.budgets().get(1).toBudget().requestsPerMinute()).isZero();
    assertThat(f.tokenBudgets(() -> 0L).remainingTokens("team-a", "m")).isEqualTo(5000);
    assertThat(f.tokenBudgets(() -> 0L).remainingTokens("team-a", "other")).isEqualTo(100_000);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "flowControl: {maxQueued: -1} | flowControl.maxQueued: -1 (expected >= 1)",
        "flowControl: {maxQueuedBytes: 0} | flowControl.maxQueuedBytes: 0 (expected >= 1)",
        "flowControl: {maxQueuedBytesTotal: 0} | flowControl.maxQueuedBytesTotal: 0 (expected >= 1)",
        "flowControl: {ttlMillis: 0} | flowControl.ttlMillis: 0 (expected 1..3600000)",
        "flowControl: {fairnessHeader: 'X Tenant'} | flowControl.fairnessHeader: 'X Tenant'",
        "flowControl: {budgets: [{fairnessId: a, tokensPerMinute: -5}]} | flowControl.budgets[0]"
            + ".tokensPerMinute: -5 (expected >= 0, 0 for no limit)",
        "flowControl: {budgets: [{fairnessId: a}]} | expected at least one limit",
        "flowControl: {budgets: [{fairnessId: a, tokensPerMinute: 1},"
            + " {fairnessId: a, tokensPerMinute: 2}]} | (already has a budget)",
        "flowControl: {enabled: true}\\nextProc: {requestBodyMode: BUFFERED} | flowControl.enabled:"
            + " true (expected extProc.requestBodyMode FULL_DUPLEX_STREAMED)",
      })
  void badValuesNameTheirPath(String yaml, String message) {
    assertThatThrownBy(() -> PickerConfig.parse(POOL + yaml.replace("\\n", "\n")))
        .hasMessageContaining(message);
  }
}
