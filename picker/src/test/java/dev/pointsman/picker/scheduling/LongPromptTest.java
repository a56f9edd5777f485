package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Prompts longer than 4,096 tokens: their cached part counts as cached, in the prefix index and in
 * the uncached-token estimate the TTFT prediction and the in-flight prefill are charged with.
 */
class LongPromptTest {
  private static final SchedulingPolicy DEFAULT = Plugins.build(PolicyConfig.defaults());
  private static final String A = "10.0.0.1:8000";

  private final InFlightTracker inFlight = new InFlightTracker();
  private final PrefixIndex index = new PrefixIndex(31_250);

  private Decision.Picked pick(PrefixHasher hasher, String prompt, int tokens) {
    Scheduler scheduler = new Scheduler(index, inFlight, hasher, () -> 0L);
    return pick(scheduler, prompt, tokens);
  }

  private static Decision.Picked pick(Scheduler scheduler, String prompt, int tokens) {
    SchedulingRequest r =
        new SchedulingRequest("r", Fixtures.MODEL, null, prompt, tokens, -1, false, null);
    PoolSnapshot pool = SchedulerTest.pool(SchedulerTest.up(A, Fixtures.metrics(0, 0, 0.1)));
    Decision d = scheduler.schedule(r, pool, DEFAULT, new SplittableRandom(1));
    assertThat(d).isInstanceOf(Decision.Picked.class);
    return (Decision.Picked) d;
  }

  private long prefillCharged() {
    return inFlight.load(A).prefillTokens();
  }

  @Test
  void theDefaultHasherReadsAWholeLongContextPrompt() {
    String prompt = Fixtures.text(new SplittableRandom(1), 32_768); // 8,192 tokens

    assertThat(PrefixHasher.DEFAULT.hash(Fixtures.MODEL, prompt)).hasSize(512);
    assertThat(PrefixHasher.DEFAULT.maxChars()).isGreaterThanOrEqualTo(131_072 * 4);
    assertThat(PickerApp.PREFIX_CHARS).isEqualTo(PrefixHasher.DEFAULT.maxChars());
  }

  @Test
  void theIndexMatchesAResentPromptPastBlock256() {
    String prompt = Fixtures.text(new SplittableRandom(2), 32_768);
    pick(PrefixHasher.DEFAULT, prompt, 8_192);

    long[] blocks = PrefixHasher.DEFAULT.hash(Fixtures.MODEL, prompt);
    assertThat(index.size(A)).isEqualTo(512);
    assertThat(index.match(blocks, List.of(A))).containsExactly(512);
  }

  @Test
  void aFullyCachedEightThousandTokenPromptIsPredictedFullyCached() {
    String prompt = Fixtures.text(new SplittableRandom(3), 32_768);
    Decision.Picked first = pick(PrefixHasher.DEFAULT, prompt, 8_192);
    assertThat(prefillCharged()).isEqualTo(8_192); // nothing cached yet
    first.ticket().release();

    Decision.Picked second = pick(PrefixHasher.DEFAULT, prompt, 8_192);

    assertThat(prefillCharged()).isZero(); // the resend prefills nothing
    assertThat(second.prediction().analyticSeconds())
        .isLessThan(first.prediction().analyticSeconds() / 4);
    int prefixRow = second.explanation().scorers().indexOf("prefix-cache-scorer");
    assertThat(second.explanation().scores()[prefixRow][0]).isEqualTo(1.0);
  }

  @Test
  void aPromptPastTheBoundCountsItsUnhashedTailAsCachedWhereEveryHashedBlockIsHeld() {
    PrefixHasher eightBlocks = new PrefixHasher(64, 8); // 512 characters hashed, 128 tokens
    String prompt = Fixtures.text(new SplittableRandom(4), 1_024); // 256 tokens
    pick(eightBlocks, prompt, 256).ticket().release();

    pick(eightBlocks, prompt, 256);

    // the holder of all 8 hashed blocks probably holds the 128 tokens past them too
    assertThat(prefillCharged()).isZero();
  }

  @Test
  void aMatchEndingInsideTheHashedBlocksEndsTheCachedPrefix() {
    PrefixHasher eightBlocks = new PrefixHasher(64, 8);
    SplittableRandom r = new SplittableRandom(5);
    String shared = Fixtures.text(r, 256); // 4 blocks
    pick(eightBlocks, shared + Fixtures.text(r, 768), 256).ticket().release();

    pick(eightBlocks, shared + Fixtures.text(r, 768), 256);

    assertThat(prefillCharged()).isEqualTo(256 - 4 * CycleState.TOKENS_PER_BLOCK);
  }

  @Test
  void theTailCountsOnlyWhenThePromptGoesOnPastTheHashedBlocks() {
    long[] blocks = {1, 2, 3, 4};
    CycleState ends = Fixtures.cycle(blocks, new int[] {4, 3});
    CycleState goesOn = Fixtures.cycle(blocks, new int[] {4, 3});
    goesOn.promptContinues(true);

    assertThat(ends.cachedTokens(0, 1_000)).isEqualTo(64);
    assertThat(goesOn.cachedTokens(0, 1_000)).isEqualTo(1_000);
    assertThat(goesOn.cachedTokens(1, 1_000)).isEqualTo(48);
  }

  @Test
  void engineMatchesOfEveryBlockOfAPromptThatGoesOnCountTheTailToo() {
    CycleState state = Fixtures.cycle(new long[] {1, 2}, new int[] {0, 0});
    state.promptContinues(true);
    state.precisePrefixMatches(new int[] {10, 9}, new int[2], 0.8, 10, 32);

    assertThat(state.cachedTokens(0, 5_000)).isEqualTo(5_000);
    assertThat(state.cachedTokens(1, 5_000)).isEqualTo(9 * 32);
  }

  @Test
  void blocksAnEngineOffloadedToCpuMemoryCountAtTheirCredit() {
    CycleState state = Fixtures.cycle(new long[] {1, 2}, new int[] {0, 0, 0});
    // candidate 0 holds 4 blocks on the GPU; candidate 1 holds 1 there and 3 more in CPU memory;
    // candidate 2 holds 4 in CPU memory only
    state.precisePrefixMatches(new int[] {4, 1, 0}, new int[] {0, 3, 4}, 0.75, 10, 32);

    assertThat(state.cachedTokens(0, 320)).isEqualTo(128);
    assertThat(state.cachedTokens(1, 320)).isEqualTo(32 + 0.75 * 96);
    assertThat(state.cachedTokens(2, 320)).isEqualTo(0.75 * 128);
    assertThat(state.prefixHitFraction(1)).isCloseTo((1 + 0.75 * 3) / 10, within(1e-12));
    // a prompt that goes on past its hashed blocks, all held: the rest is where the last block is
    state.promptContinues(true);
    state.precisePrefixMatches(new int[] {10, 2, 0}, new int[] {0, 8, 0}, 0.75, 10, 32);
    assertThat(state.cachedTokens(0, 5_000)).isEqualTo(5_000);
    assertThat(state.cachedTokens(1, 5_000)).isEqualTo(64 + 0.75 * (5_000 - 64));
  }

  @Test
  void thePickerParserKeepsAnEightThousandTokenPromptWhole() {
    String prompt = Fixtures.text(new SplittableRandom(6), 32_768);
    String body =
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
    RequestParser parser =
        new RequestParser(
            new ParserLimits(ParserLimits.DEFAULT_MAX_BODY_BYTES, PickerApp.PREFIX_CHARS, 64));

    String kept =
        parser.parse("/v1/chat/completions", body.getBytes(StandardCharsets.UTF_8)).promptPrefix();

    assertThat(kept).isEqualTo(prompt);
  }
}
