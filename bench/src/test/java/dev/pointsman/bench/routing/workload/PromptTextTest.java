package dev.pointsman.bench.routing.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.sim.engine.Segment;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PromptTextTest {
  private final PromptText text = new PromptText(TextMix.defaults());

  @Test
  void equalContentRendersToEqualTextAndOtherContentDiffersAtOnce() {
    assertThat(text.render(new Segment(5, 100))).isEqualTo(text.render(new Segment(5, 100)));
    String a = text.render(new Segment(5, 100));
    String longer = text.render(new Segment(5, 150));
    assertThat(longer).startsWith(a);
    assertThat(text.render(new Segment(8, 100)).substring(0, 8)).isNotEqualTo(a.substring(0, 8));
  }

  @Test
  void charactersPerTokenFollowTheScriptAndVaryTokenByToken() {
    Map<PromptText.Script, long[]> charsAndTokens = new EnumMap<>(PromptText.Script.class);
    Set<Integer> oneTokenLengths = new HashSet<>();
    for (long id = 1; id <= 3000; id++) {
      Segment s = new Segment(id, 50);
      long[] ct = charsAndTokens.computeIfAbsent(text.scriptOf(id), k -> new long[2]);
      ct[0] += text.render(s).length();
      ct[1] += s.length();
      if (text.scriptOf(id) == PromptText.Script.PROSE) {
        oneTokenLengths.add(text.render(new Segment(id, 1)).length());
      }
    }
    for (PromptText.Script script : PromptText.Script.values()) {
      long[] ct = charsAndTokens.get(script);
      assertThat((double) ct[0] / ct[1])
          .as(script.name())
          .isCloseTo(script.meanCharsPerToken(), within(0.1));
    }
    // not a fixed width: a token is 1 to 7 characters of prose
    assertThat(oneTokenLengths).hasSizeGreaterThanOrEqualTo(6);
    // the default mix: 70% prose, 20% code, 10% CJK content
    double prose = charsAndTokens.get(PromptText.Script.PROSE)[1] / (3000.0 * 50);
    double cjk = charsAndTokens.get(PromptText.Script.CJK)[1] / (3000.0 * 50);
    assertThat(prose).isCloseTo(0.7, within(0.03));
    assertThat(cjk).isCloseTo(0.1, within(0.02));
  }

  @Test
  void cjkContentIsNonAsciiAndCodeHasLineBreaks() {
    PromptText cjk = new PromptText(new TextMix(0.0, 0.0, 1.0));
    PromptText code = new PromptText(new TextMix(0.0, 1.0, 0.0));
    assertThat(cjk.render(new Segment(1, 200)).chars().allMatch(c -> c >= 0x4E00 && c <= 0x9FFF))
        .isTrue();
    assertThat(code.render(new Segment(1, 400))).contains("\n");
  }
}
