package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The spec-sheet prior is a starting point: a world that runs at half or twice the prior's speed is
 * learned from observed first tokens, through the scheduler as the picker drives it (schedule,
 * first token, release).
 */
class PriorConvergenceTest {
  private static final SchedulingPolicy DEFAULT = Plugins.build(PolicyConfig.defaults());

  private final Scheduler scheduler =
      new Scheduler(new PrefixIndex(1000), new InFlightTracker(), PrefixHasher.DEFAULT, () -> 0L);

  private static PoolSnapshot pool(String... gpus) {
    EndpointState[] states = new EndpointState[gpus.length];
    for (int i = 0; i < gpus.length; i++) {
      states[i] =
          new EndpointState(
              new Endpoint("10.0.0." + (i + 1) + ":8000", "p", Map.of("gpu", gpus[i])),
              Fixtures.metrics(0, 0, 0.0),
              true);
    }
    return new PoolSnapshot("p", List.of(states));
  }

  private Decision.Picked pick(PoolSnapshot pool, int promptTokens, long seed) {
    SchedulingRequest r =
        new SchedulingRequest("r", Fixtures.MODEL, null, "", promptTokens, -1, false, null);
    return (Decision.Picked) scheduler.schedule(r, pool, DEFAULT, new SplittableRandom(seed));
  }

  /**
   * @param speed how fast the endpoint really is, against its prior: 0.5 = the prior is twice too
   *     fast (off by ×2), 2 = half too fast (off by ×0.5)
   */
  @ParameterizedTest(name = "world at {0}x the prior's speed")
  @ValueSource(doubles = {0.5, 2.0})
  void aWrongPriorIsLearnedWithinTwentyFirstTokens(double speed) {
    PoolSnapshot pool = pool("L4");
    SplittableRandom noise = new SplittableRandom(7);
    double firstError = Double.NaN;
    for (int i = 0; i < 20; i++) {
      // prompts of 1,000 to 4,000 tokens: an L4 prefills them in a quarter to one second
      Decision.Picked p = pick(pool, 1000 + 150 * i, i);
      double truth = p.analyticTtftSeconds() / speed;
      if (i == 0) {
        firstError = Math.abs(p.predictedTtftSeconds() / truth - 1);
      }
      scheduler.observeTtft(p, truth * (1 + 0.05 * noise.nextGaussian()));
      p.ticket().release();
    }
    Decision.Picked p = pick(pool, 2500, 99);
    double truth = p.analyticTtftSeconds() / speed;
    assertThat(firstError).as("the prior alone").isGreaterThan(0.45);
    assertThat(Math.abs(p.predictedTtftSeconds() / truth - 1)).as("after 20").isLessThan(0.05);
    p.ticket().release();
  }

  @Test
  void aGpuSlowerThanItsLabelLosesItsTrafficOnceObserved() {
    // the endpoint labelled H100 is throttled to an eighth of its prior; the A100 is as its prior
    PoolSnapshot pool = pool("H100-80", "A100-80");
    String h100 = pool.endpoints().get(0).address();
    String first = null;
    int toH100Late = 0;
    for (int i = 0; i < 40; i++) {
      Decision.Picked p = pick(pool, 3000, i);
      if (i == 0) {
        first = p.address();
      }
      double slowdown = p.address().equals(h100) ? 8 : 1;
      scheduler.observeTtft(p, p.analyticTtftSeconds() * slowdown);
      p.ticket().release();
      if (i >= 20 && p.address().equals(h100)) {
        toH100Late++;
      }
    }
    assertThat(first).as("the prior prefers the H100").isEqualTo(h100);
    assertThat(toH100Late).as("picks of the throttled H100 among the last 20").isZero();
  }
}
