package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockHashesTest {
  private static final long BASE = BlockHashes.identity("m", "");

  @Test
  void sharedPrefixGivesEqualLeadingHashesAndThenDiverges() {
    long[] a = BlockHashes.of(BASE, List.of(new Segment(1, 40), new Segment(2, 40)), 9, 0, 16);
    long[] b = BlockHashes.of(BASE, List.of(new Segment(1, 40), new Segment(3, 40)), 9, 0, 16);

    assertThat(a).hasSize(5);
    assertThat(Arrays.copyOf(a, 2)).isEqualTo(Arrays.copyOf(b, 2));
    assertThat(a[2]).isNotEqualTo(b[2]);
  }

  @Test
  void theChainMakesEqualBlocksAtDifferentPositionsDiffer() {
    long[] a = BlockHashes.of(BASE, List.of(new Segment(1, 16), new Segment(1, 16)), 9, 0, 16);

    assertThat(a[0]).isNotEqualTo(a[1]);
  }

  @Test
  void outputTokensExtendTheSequenceLikeAPromptSegment() {
    long[] generated = BlockHashes.of(BASE, List.of(new Segment(1, 20)), 7, 30, 16);
    long[] asPrompt =
        BlockHashes.of(BASE, List.of(new Segment(1, 20), new Segment(7, 30)), 0, 0, 16);

    assertThat(generated).isEqualTo(asPrompt).hasSize(3);
  }

  @Test
  void modelAndAdapterArePartOfTheHash() {
    List<Segment> p = List.of(new Segment(1, 32));

    assertThat(BlockHashes.of(BASE, p, 0, 0, 16)[0])
        .isNotEqualTo(BlockHashes.of(BlockHashes.identity("m", "a"), p, 0, 0, 16)[0])
        .isNotEqualTo(BlockHashes.of(BlockHashes.identity("n", ""), p, 0, 0, 16)[0]);
  }
}
