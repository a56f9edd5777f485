package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The weighted Envoy balancers eject a pod after five 5xx in a row, for 30 s times the number of
 * its ejections, at most 10% of the pods (at least one) at once; a 4xx is not an outlier.
 */
class OutlierDetectionTest {
  private HealthFixture world;

  private FleetView fleet(int pods) {
    world = new HealthFixture(pods, 100);
    return world.fleet;
  }

  private void fail(RoutingPolicy p, int pod, int times, long firstId) {
    for (int i = 0; i < times; i++) {
      p.onFailed(world.request(firstId + i), pod);
    }
  }

  @Test
  void fiveFailuresInARowEjectAPodForThirtySecondsThenLongerEachTime() {
    for (String name : List.of("weighted-round-robin", "weighted-least-request")) {
      RoutingPolicy p = Policies.create(name, fleet(4), new SplittableRandom(3));

      fail(p, 0, 4, 100);
      assertThat(world.sentTo(p, 0, 40, 1_000)).as(name + ": four are not enough").isPositive();
      fail(p, 0, 5, 200);
      assertThat(world.sentTo(p, 0, 40, 2_000)).as(name + ": ejected").isZero();

      world.cluster.runUntil(29_000);
      assertThat(world.sentTo(p, 0, 40, 3_000)).as(name + ": still ejected").isZero();
      world.cluster.runUntil(30_001);
      assertThat(world.sentTo(p, 0, 40, 4_000)).as(name + ": back").isPositive();

      fail(p, 0, 5, 300);
      world.cluster.runUntil(30_001 + 59_000);
      assertThat(world.sentTo(p, 0, 40, 5_000)).as(name + ": second ejection, 60 s").isZero();
      world.cluster.runUntil(30_001 + 60_001);
      assertThat(world.sentTo(p, 0, 40, 6_000)).as(name + ": back again").isPositive();
    }
  }

  @Test
  void aSuccessEndsTheRunAndAClientErrorIsNoOutlier() {
    RoutingPolicy p = Policies.create("weighted-round-robin", fleet(4), new SplittableRandom(3));

    fail(p, 0, 4, 100);
    p.onFirstToken(world.request(150), 0);
    fail(p, 0, 4, 200);
    for (int i = 0; i < 10; i++) {
      p.onRefused(world.request(300 + i), 0);
    }

    assertThat(world.sentTo(p, 0, 40, 1_000)).isPositive();
  }

  @Test
  void atMostOnePodInTenIsEjectedAtOnceAndAlwaysOne() {
    RoutingPolicy small =
        Policies.create("weighted-round-robin", fleet(4), new SplittableRandom(3));
    fail(small, 0, 5, 100);
    fail(small, 1, 5, 200);
    assertThat(world.sentTo(small, 0, 40, 1_000)).as("the first is ejected").isZero();
    assertThat(world.sentTo(small, 1, 40, 2_000)).as("the second is over the limit").isPositive();

    RoutingPolicy large =
        Policies.create("weighted-round-robin", fleet(20), new SplittableRandom(3));
    for (int pod = 0; pod < 3; pod++) {
      fail(large, pod, 5, 100L * (pod + 1));
    }
    assertThat(world.sentTo(large, 0, 200, 1_000) + world.sentTo(large, 1, 200, 2_000)).isZero();
    assertThat(world.sentTo(large, 2, 200, 3_000)).as("10% of 20 is 2").isPositive();
  }
}
