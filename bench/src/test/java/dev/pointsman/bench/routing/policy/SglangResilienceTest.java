package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The SGLang baseline keeps its router's defaults: a refused request is sent again after 50, 100,
 * 200, 400 and 800 ms (±10%), then given up; five refusals in a row open a worker's circuit for 30
 * s, after which requests go to it again, one refusal opens it again and two answers close it.
 */
class SglangResilienceTest {
  private HealthFixture world;

  /** Each request a prompt of its own, so the cache-aware rule spreads them by tree size. */
  private FleetView fleet(int pods) {
    world = new HealthFixture(pods, 400);
    return world.fleet;
  }

  /** {@code times} requests refused by {@code pod} (as if the router had sent them there). */
  private void refuse(RoutingPolicy p, int pod, int times, long firstId) {
    for (int i = 0; i < times; i++) {
      p.onConnectFailed(world.request(firstId + i), pod, 0);
    }
  }

  @Test
  void aRefusedRequestIsSentAgainAfterADoublingBackoffFiveTimesThenGivenUp() {
    RoutingPolicy p = Policies.create("sglang-cache-aware", fleet(4), new SplittableRandom(5));
    BenchRequest r = world.request(1);
    for (int retries = 0; retries < 5; retries++) {
      p.route(r);
      double expected = 50 * Math.pow(2, retries);
      assertThat(p.onConnectFailed(r, 1, retries))
          .as("retry %d", retries + 1)
          .isCloseTo(expected, within(expected * 0.1 + 1e-9));
    }
    p.route(r);
    assertThat(p.onConnectFailed(r, 1, 5)).as("retries used up").isNaN();
  }

  @Test
  void fiveRefusalsInARowOpenAWorkersCircuitForThirtySeconds() {
    RoutingPolicy p = Policies.create("sglang-cache-aware", fleet(4), new SplittableRandom(5));

    refuse(p, 0, 4, 100);
    assertThat(world.sentTo(p, 0, 40, 1_000)).as("four are not enough").isPositive();
    refuse(p, 0, 5, 200);
    assertThat(world.sentTo(p, 0, 40, 2_000)).as("open").isZero();

    world.cluster.runUntil(29_000);
    assertThat(world.sentTo(p, 0, 40, 3_000)).as("still open").isZero();
    world.cluster.runUntil(30_001);
    assertThat(world.sentTo(p, 0, 40, 4_000)).as("half-open: requests go to it again").isPositive();
  }

  @Test
  void halfOpenOneRefusalOpensItAgainAndTwoAnswersCloseIt() {
    RoutingPolicy p = Policies.create("sglang-cache-aware", fleet(4), new SplittableRandom(5));
    refuse(p, 0, 5, 100);
    world.cluster.runUntil(30_001);
    refuse(p, 0, 1, 200);
    assertThat(world.sentTo(p, 0, 40, 1_000))
        .as("one refusal while half-open: open again")
        .isZero();

    world.cluster.runUntil(60_002);
    assertThat(world.sentTo(p, 0, 40, 2_000))
        .as("half-open again; its answers close it")
        .isPositive();
    refuse(p, 0, 4, 300);
    assertThat(world.sentTo(p, 0, 40, 3_000))
        .as("closed: four refusals are not enough")
        .isPositive();
  }

  @Test
  void anAnswerEndsARunOfRefusals() {
    RoutingPolicy p = Policies.create("sglang-cache-aware", fleet(4), new SplittableRandom(5));
    refuse(p, 0, 4, 100);
    BenchRequest ok = world.request(50);
    p.route(ok);
    p.onFirstToken(ok, 0);
    p.onFinish(ok, 0);
    refuse(p, 0, 4, 200);
    assertThat(world.sentTo(p, 0, 40, 1_000)).as("4 + 4 with an answer between").isPositive();
  }
}
