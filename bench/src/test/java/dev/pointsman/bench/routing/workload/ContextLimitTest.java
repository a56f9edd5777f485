package dev.pointsman.bench.routing.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.sim.engine.GpuProfile;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Segment;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextLimitTest {
  private final ContextLimit limit = new ContextLimit(8192);

  @Test
  void aRequestThatFitsIsUnchanged() {
    List<Segment> prompt = List.of(new Segment(1, 6000), new Segment(2, 1192));
    ContextLimit.Fit fit = limit.fit(prompt, 1000);
    assertThat(fit.prompt()).isEqualTo(prompt);
    assertThat(fit.outputTokens()).isEqualTo(1000);
    assertThat(fit.cut()).isFalse();
  }

  @Test
  void aLongPromptKeepsItsFirstTokensAndItsAnswer() {
    List<Segment> prompt = List.of(new Segment(1, 512), new Segment(2, 512), new Segment(3, 9000));
    ContextLimit.Fit fit = limit.fit(prompt, 300);
    assertThat(fit.cut()).isTrue();
    assertThat(fit.outputTokens()).isEqualTo(300);
    assertThat(fit.prompt())
        .containsExactly(new Segment(1, 512), new Segment(2, 512), new Segment(3, 6868));
  }

  @Test
  void aLongAnswerKeepsHalfTheContext() {
    ContextLimit.Fit fit = limit.fit(List.of(new Segment(1, 5000)), 6000);
    assertThat(fit.cut()).isTrue();
    assertThat(fit.outputTokens()).isEqualTo(4096);
    assertThat(fit.prompt()).containsExactly(new Segment(1, 4096));
    assertThatThrownBy(() -> new ContextLimit(100)).hasMessageContaining("(expected >= 256)");
  }

  @Test
  void theDefaultContextIsTheModelsLoweredToTheSmallestKvCache() {
    // S1 has L4 pods, whose KV cache is the fleet's smallest; T2 is H100-80 pods only.
    GpuProfile l4 = GpuProfiles.builtIn().get("L4");
    assertThat(l4.kvBlocks() * l4.blockSize()).isLessThan(ServedContext.MODEL_CONTEXT_TOKENS);
    assertThat(ServedContext.tokens(Scenarios.load("s1")))
        .isEqualTo(l4.kvBlocks() * l4.blockSize());
    assertThat(ServedContext.tokens(Scenarios.load("t2")))
        .isEqualTo(ServedContext.MODEL_CONTEXT_TOKENS);
  }
}
