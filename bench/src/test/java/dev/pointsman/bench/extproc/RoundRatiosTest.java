package dev.pointsman.bench.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundRatiosTest {
  @Test
  void equalRatiosHaveNoSpread() {
    RoundRatios r = RoundRatios.of(new double[] {2, 4, 6}, new double[] {1, 2, 3});

    assertThat(r.perRound()).containsExactly(2, 2, 2);
    assertThat(r.mean()).isEqualTo(2);
    assertThat(r.halfWidth95()).isEqualTo(0);
    assertThat(r.interval()).isEqualTo("2.00× ± 0.00");
  }

  @Test
  void meanOfPerRoundRatiosWithStudentT() {
    // ratios 1, 2, 3: mean 2, sample sd 1, t(2 df) = 4.303, half-width 4.303 / sqrt(3)
    RoundRatios r = RoundRatios.of(new double[] {1, 4, 9}, new double[] {1, 2, 3});

    assertThat(r.mean()).isEqualTo(2);
    assertThat(r.halfWidth95()).isCloseTo(4.303 / Math.sqrt(3), within(1e-9));
    assertThat(r.interval()).isEqualTo("2.00× ± 2.48");
    assertThat(r.rounds()).isEqualTo("1.00, 2.00, 3.00");
  }

  @Test
  void roundsWithoutAnEchoFigureAreLeftOut() {
    // no young GC for the echo in round 2: no ratio there
    RoundRatios r = RoundRatios.of(new double[] {3, 5, 4}, new double[] {2, 0, 2});

    assertThat(r.perRound()[1]).isNaN();
    assertThat(r.mean()).isEqualTo(1.75);
    assertThat(r.halfWidth95()).isCloseTo(12.706 * Math.sqrt(0.125) / Math.sqrt(2), within(1e-9));
    assertThat(r.rounds()).isEqualTo("1.50, n/a, 2.00");
  }

  @Test
  void oneRoundHasNoInterval() {
    RoundRatios r = RoundRatios.of(new double[] {3}, new double[] {2});

    assertThat(r.halfWidth95()).isNaN();
    assertThat(r.interval()).isEqualTo("1.50×");
    assertThat(RoundRatios.of(new double[] {1}, new double[] {0}).interval()).isEqualTo("n/a");
  }

  @Test
  void figuresOfEveryRoundAreNeeded() {
    assertThatThrownBy(() -> RoundRatios.of(new double[] {1, 2}, new double[] {1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 picker figures, 1 echo");
  }

  @Test
  void childResultLinesAreReadAndSummarized() {
    Map<String, Double> p =
        DataPathAB.parse("ab-result target=picker requests=100 p50_ms=0.6 cpu_us=650 settled=1");
    Map<String, Double> e =
        DataPathAB.parse("ab-result target=echo requests=100 p50_ms=0.3 cpu_us=325 settled=1");

    assertThat(p).containsEntry("p50_ms", 0.6).containsEntry("cpu_us", 650.0);
    assertThat(p).doesNotContainKey("target");
    String table = DataPathAB.summary(Map.of("picker", List.of(p, p), "echo", List.of(e, e)), 2);
    assertThat(table)
        .contains("| added latency p50 (ms) | 0.600 | 0.300 | 2.00× ± 0.00 | 2.00, 2.00 |")
        .contains("| process CPU per request (µs) | 650 | 325 | 2.00× ± 0.00 |")
        .contains("0 of 4 runs ended warm-up before the JIT settled");
  }

  @Test
  void youngCollectorsByName() {
    assertThat(JvmCounters.young("G1 Young Generation")).isTrue();
    assertThat(JvmCounters.young("PS Scavenge")).isTrue();
    assertThat(JvmCounters.young("G1 Old Generation")).isFalse();
    assertThat(JvmCounters.young("G1 Concurrent GC")).isFalse();
    assertThat(JvmCounters.EXECUTOR_THREAD.matcher("grpc-1").matches()).isTrue();
    assertThat(JvmCounters.EXECUTOR_THREAD.matcher("grpc-default-executor-0").matches()).isFalse();
    assertThat(JvmCounters.EXECUTOR_THREAD.matcher("grpc-nio-worker-ELG-1-2").matches()).isFalse();
  }
}
