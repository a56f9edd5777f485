package dev.pointsman.picker.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The prefix scorer reads the precise index for the pools configured to, when tokens are known. */
class EnginePrefixTest {
  private static final SchedulingPolicy DEFAULT = Plugins.build(PolicyConfig.defaults());
  private static final String HOLDER = "10.0.0.3:8000";

  /** A stand-in tokenizer: one token per character. */
  private static final PromptTokenizer CHARS = r -> r.promptPrefix().chars().toArray();

  private final KvBlockIndex index = new KvBlockIndex(1000);
  private final Scheduler scheduler =
      new Scheduler(new PrefixIndex(1000), new InFlightTracker(), PrefixHasher.DEFAULT, () -> 0L);

  private static PoolSnapshot pool() {
    List<EndpointState> states = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      states.add(
          new EndpointState(
              new Endpoint("10.0.0." + i + ":8000", "llama"),
              new EndpointMetrics(
                  0, 0, 0.1, -1, java.util.Set.of(), java.util.Set.of(), 4, Double.NaN, 0L),
              true));
    }
    return new PoolSnapshot("llama", states);
  }

  private static SchedulingRequest request(String prompt) {
    return new SchedulingRequest("r", "llama", null, prompt, 1000, -1, false, null);
  }

  private double prefixScore(Decision.Picked d, String address) {
    int row = d.explanation().scorers().indexOf("prefix-cache-scorer");
    return d.explanation().scores()[row][d.explanation().candidates().indexOf(address)];
  }

  /** The engine at {@link #HOLDER} reports that it cached the first 3 blocks of {@code prompt}. */
  private void holderCaches(String prompt) {
    int[] tokens = prompt.chars().limit(12).toArray();
    index.apply(
        HOLDER,
        List.of(new KvEvent.BlockStored(new long[] {1, 2, 3}, null, tokens, 4, null, "GPU")));
  }

  @Test
  void aConfiguredPoolScoresByWhatItsEnginesReport() {
    String prompt = "abcdefghijklmnopqrstuvwx"; // 6 blocks of 4
    holderCaches(prompt);
    scheduler.usePrecisePrefix(p -> p.equals("llama") ? new EnginePrefix(index, CHARS) : null);

    Decision.Picked d =
        (Decision.Picked)
            scheduler.schedule(request(prompt), pool(), DEFAULT, new SplittableRandom(1));

    assertThat(d.address()).isEqualTo(HOLDER);
    assertThat(prefixScore(d, HOLDER)).isCloseTo(0.5, within(1e-9)); // 3 of 6 blocks
  }

  @Test
  void withoutTheSettingOrWithoutTokensTheApproximateIndexDecides() {
    String prompt = "abcdefghijklmnopqrstuvwx";
    holderCaches(prompt);

    scheduler.usePrecisePrefix(p -> null);
    Decision.Picked off =
        (Decision.Picked)
            scheduler.schedule(request(prompt), pool(), DEFAULT, new SplittableRandom(1));
    scheduler.usePrecisePrefix(p -> new EnginePrefix(index, r -> null));
    Decision.Picked noTokens =
        (Decision.Picked)
            scheduler.schedule(request(prompt), pool(), DEFAULT, new SplittableRandom(1));

    assertThat(prefixScore(off, HOLDER)).isZero();
    assertThat(prefixScore(noTokens, HOLDER)).isZero();
  }
}
