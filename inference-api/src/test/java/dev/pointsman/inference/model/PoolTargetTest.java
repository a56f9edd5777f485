package dev.pointsman.inference.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PoolTargetTest {
  private final List<PoolTarget> split =
      List.of(new PoolTarget("stable", 9), new PoolTarget("canary", 1));

  @Test
  void choosesByWeight() {
    assertThat(PoolTarget.choose(split, 0.0).pool()).isEqualTo("stable");
    assertThat(PoolTarget.choose(split, 0.8999).pool()).isEqualTo("stable");
    assertThat(PoolTarget.choose(split, 0.9).pool()).isEqualTo("canary");
    assertThat(PoolTarget.choose(split, Math.nextDown(1.0)).pool()).isEqualTo("canary");
  }

  @Test
  void sharesFollowWeightsOverAUniformGrid() {
    int canary = 0;
    for (int i = 0; i < 10_000; i++) {
      canary += PoolTarget.choose(split, i / 10_000.0).pool().equals("canary") ? 1 : 0;
    }
    assertThat(canary).isEqualTo(1_000);
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> PoolTarget.choose(List.of(), 0.5))
        .hasMessage("targets: [] (expected at least one pool)");
    assertThatThrownBy(() -> PoolTarget.choose(split, 1.0)).hasMessageContaining("[0, 1)");
    assertThatThrownBy(() -> new PoolTarget("p", 0)).hasMessage("weight: 0 (expected > 0)");
    assertThatThrownBy(() -> new PoolTarget("p", Double.NaN))
        .hasMessage("weight: NaN (expected > 0)");
    assertThatThrownBy(() -> new PoolTarget(" ", 1))
        .hasMessage("pool: \" \" (expected a pool name)");
  }
}
