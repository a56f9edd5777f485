package dev.pointsman.picker.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class HotPrefixesTest {
  private static final String TURN1 = "s".repeat(64 * 5 + 10);
  private static final String TURN2 = TURN1 + "then the answer and a second question".repeat(40);

  @Test
  void aLaterTurnFindsTheEarlierTurnsDigestInItsChain() {
    HotPrefixes hot = new HotPrefixes(8);

    hot.record("main", "llama", TURN1);

    long digest = hot.of("main").getFirst();
    long[] chain = HotPrefixes.chain("llama", TURN2);
    assertThat(chain).hasSize(HotPrefixes.AFFINITY_BLOCKS);
    assertThat(chain[4]).isEqualTo(digest);
    assertThat(Arrays.stream(chain).filter(h -> h == digest).count()).isEqualTo(1);
  }

  @Test
  void digestsAreThePickersOwnPrefixHashes() {
    long[] mine = HotPrefixes.chain("llama", TURN2);
    long[] pickers = PrefixHasher.DEFAULT.hash("llama", TURN2);

    assertThat(mine).containsExactly(Arrays.copyOf(pickers, HotPrefixes.AFFINITY_BLOCKS));
  }

  @Test
  void anotherModelSameTextIsAnotherDigest() {
    assertThat(HotPrefixes.chain("llama", TURN1)[0])
        .isNotEqualTo(HotPrefixes.chain("mistral", TURN1)[0]);
  }

  @Test
  void keepsTheNewestUpToCapacityNewestFirst() {
    HotPrefixes hot = new HotPrefixes(2);
    List<String> prompts = List.of("a".repeat(64), "b".repeat(64), "c".repeat(64));

    prompts.forEach(p -> hot.record("main", "m", p));

    assertThat(hot.of("main"))
        .containsExactly(
            HotPrefixes.chain("m", prompts.get(2))[0], HotPrefixes.chain("m", prompts.get(1))[0]);
  }

  @Test
  void aRepeatedPromptMovesToTheFrontWithoutGrowing() {
    HotPrefixes hot = new HotPrefixes(4);
    hot.record("main", "m", "a".repeat(64));
    hot.record("main", "m", "b".repeat(64));

    hot.record("main", "m", "a".repeat(64));

    assertThat(hot.of("main"))
        .hasSize(2)
        .first()
        .isEqualTo(HotPrefixes.chain("m", "a".repeat(64))[0]);
  }

  @Test
  void promptsUnderOneBlockAndOtherPoolsAreNotNoted() {
    HotPrefixes hot = new HotPrefixes(4);

    hot.record("main", "m", "short");
    hot.record("other", "m", "x".repeat(64));

    assertThat(hot.of("main")).isEmpty();
    hot.retain(List.of("main"));
    assertThat(hot.of("other")).isEmpty();
  }

  @Test
  void capacityOutOfRangeIsRefusedByName() {
    assertThatThrownBy(() -> new HotPrefixes(-1))
        .hasMessage("summary.hotPrefixes: -1 (expected 0..100000)");
  }
}
