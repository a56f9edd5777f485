package dev.pointsman.fleet.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.summary.ClusterSummary;
import dev.pointsman.picker.summary.HotPrefixes;
import dev.pointsman.picker.summary.PoolSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReceivedTest {
  private static final String TURN1 = "system prompt and a first question ".repeat(6);
  private static final String TURN2 = TURN1 + "an answer, then a follow-up question ".repeat(20);

  private static ClusterSummary summary(int version, String cluster, List<Long> hot) {
    return new ClusterSummary(
        version,
        cluster,
        1,
        0,
        250,
        1000,
        List.of(
            new PoolSummary(
                "main", List.of("llama"), 2, 2, 100, 0, 0.1, false, 0, List.of(), hot, -1)));
  }

  @Test
  void aLaterTurnMatchesTheEarlierTurnsAdvertisedDigestAtItsDepth() {
    long[] turn1 = HotPrefixes.chain("llama", TURN1);
    Received r = Received.accept("east", summary(1, "east", List.of(turn1[turn1.length - 1])));

    int depth = r.prefixDepth("main", HotPrefixes.chain("llama", TURN2));

    assertThat(depth).isEqualTo(turn1.length);
    assertThat(r.prefixDepth("main", HotPrefixes.chain("llama", "unrelated ".repeat(30)))).isZero();
    assertThat(r.prefixDepth("other-pool", HotPrefixes.chain("llama", TURN2))).isZero();
  }

  @Test
  void anotherVersionIsRefusedNamingBoth() {
    assertThatThrownBy(() -> Received.accept("east", summary(2, "east", List.of())))
        .hasMessageStartingWith("summary version 2 (expected 1");
  }

  @Test
  void aSummaryOfAnotherClusterIsRefusedNamingBoth() {
    assertThatThrownBy(() -> Received.accept("east", summary(1, "west", List.of())))
        .hasMessageStartingWith("summary of cluster 'west' (expected 'east'");
  }
}
