package dev.pointsman.picker.scheduling.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LatencyModelTest {

  @Test
  void untrainedPredictionIsTheAnalyticEstimate() {
    LatencyModel m = new LatencyModel();
    assertThat(m.predict("a", 0.25)).isEqualTo(0.25);
    assertThat(m.mape("a")).isNaN();
    assertThat(m.coefficients("a")).containsExactly(0, 1);
  }

  @Test
  void convergesOnSyntheticData() {
    // given an endpoint truly 2.5x slower than its profile, with 20 ms of fixed overhead and noise
    LatencyModel m = new LatencyModel();
    SplittableRandom rnd = new SplittableRandom(1);
    for (int i = 0; i < 2_000; i++) {
      double x = rnd.nextDouble(0.01, 2.0);
      double y = 0.02 + 2.5 * x + rnd.nextGaussian() * 0.01;
      m.observe("pod", x, y);
    }
    // then
    assertThat(m.coefficients("pod")[1]).isCloseTo(2.5, within(0.05));
    assertThat(m.coefficients("pod")[0]).isCloseTo(0.02, within(0.02));
    assertThat(m.predict("pod", 1.0)).isCloseTo(2.52, within(0.06));
    assertThat(m.mape("pod")).isLessThan(0.05);
  }

  @Test
  void adaptsWhenAPodSlowsDown() {
    LatencyModel m = new LatencyModel();
    SplittableRandom rnd = new SplittableRandom(2);
    for (int i = 0; i < 500; i++) {
      double x = rnd.nextDouble(0.05, 1.0);
      m.observe("pod", x, x);
    }
    assertThat(m.predict("pod", 0.5)).isCloseTo(0.5, within(0.02));
    for (int i = 0; i < 500; i++) {
      double x = rnd.nextDouble(0.05, 1.0);
      m.observe("pod", x, 3 * x); // the pod became three times slower
    }
    assertThat(m.predict("pod", 0.5)).isCloseTo(1.5, within(0.05));
  }

  @Test
  void aTimePerOutputTokenModelConvergesAndAdaptsAtItsOwnScale() {
    // TPOT is milliseconds: an endpoint 1.8x slower than its profile, with 10% noise
    LatencyModel m = LatencyModel.forTpot();
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 2_000; i++) {
      double x = rnd.nextDouble(0.006, 0.06);
      m.observe("pod", x, 1.8 * x * (1 + rnd.nextGaussian() * 0.1));
    }
    assertThat(m.coefficients("pod")[1]).isCloseTo(1.8, within(0.05));
    assertThat(m.predict("pod", 0.02)).isCloseTo(0.036, within(0.001));
    assertThat(m.mape("pod")).isLessThan(0.15);
    for (int i = 0; i < 500; i++) {
      double x = rnd.nextDouble(0.006, 0.06);
      m.observe("pod", x, 3 * 1.8 * x); // the pod became three times slower
    }
    assertThat(m.predict("pod", 0.02)).isCloseTo(0.108, within(0.004));
  }

  @Test
  void aTimePerOutputTokenModelIsNotThrownByStalledRequests() {
    // one request in 50 stalls behind a long prefill or a preemption: 1,000x its usual TPOT
    LatencyModel m = LatencyModel.forTpot();
    SplittableRandom rnd = new SplittableRandom(4);
    for (int i = 0; i < 5_000; i++) {
      double x = rnd.nextDouble(0.006, 0.06);
      double y = i % 50 == 49 ? 1000 * x : x;
      m.observe("pod", x, y);
      assertThat(m.predict("pod", 0.02)).isBetween(0.0, 0.02 * 50);
    }
    // the outliers move it by a bounded step each, and it settles near the typical request
    assertThat(m.predict("pod", 0.02)).isBetween(0.02, 0.04);
  }

  @Test
  void learnsAConstantOverheadWhenLoadDoesNotVary() {
    LatencyModel m = new LatencyModel();
    for (int i = 0; i < 1_000; i++) {
      m.observe("pod", 0.1, 0.3);
    }
    assertThat(m.predict("pod", 0.1)).isCloseTo(0.3, within(0.01));
    double[] ab = m.coefficients("pod");
    assertThat(ab[0] + ab[1] * 0.1).isCloseTo(0.3, within(0.01));
  }

  @Test
  void aFitLearnedOnSmallEstimatesDoesNotExtrapolateWildlyToLargeOnes() {
    // a quiet phase: every estimate is 5-20 ms, the truth has 10 ms of overhead and 30% noise
    LatencyModel m = new LatencyModel();
    SplittableRandom rnd = new SplittableRandom(5);
    for (int i = 0; i < 3_000; i++) {
      double x = rnd.nextDouble(0.005, 0.02);
      m.observe("pod", x, Math.max(0, 0.01 + x * (1 + rnd.nextGaussian() * 0.3)));
    }
    assertThat(m.predict("pod", 0.01)).isCloseTo(0.02, within(0.005));
    // then a burst: the estimate is a second; the truth is about a second too
    assertThat(m.predict("pod", 1.0)).isBetween(0.7, 1.4);
  }

  @Test
  void theOverheadIsNeverNegativeNorAboveItsBound() {
    // an endpoint twice as fast as its profile: a factor below 1, not a negative overhead
    LatencyModel fast = new LatencyModel();
    SplittableRandom rnd = new SplittableRandom(6);
    for (int i = 0; i < 1_000; i++) {
      double x = rnd.nextDouble(0.05, 1.0);
      fast.observe("pod", x, x / 2);
    }
    assertThat(fast.coefficients("pod")[0]).isBetween(0.0, 0.005);
    assertThat(fast.predict("pod", 0.4)).isCloseTo(0.2, within(0.01));
    // five seconds more than estimated, always: the overhead stays within 100 ms
    LatencyModel slow = new LatencyModel();
    for (int i = 0; i < 1_000; i++) {
      double x = rnd.nextDouble(0.05, 1.0);
      slow.observe("pod", x, x + 5);
    }
    assertThat(slow.coefficients("pod")[0]).isBetween(0.0, 0.1);
  }

  @Test
  void memoryIsBoundedByEndpointsNotObservations() {
    LatencyModel m = new LatencyModel();
    for (int i = 0; i < 100_000; i++) {
      m.observe("pod-" + (i % 4), 0.1, 0.1);
    }
    m.retain(List.of("pod-0", "pod-1"));
    assertThat(m.observations("pod-2")).isZero();
    assertThat(m.observations("pod-0")).isEqualTo(25_000);
  }

  /**
   * The pool's responses after a pod became three times slower until {@code m}, shown every {@code
   * every}-th of them, predicts at least twice the analytic estimate.
   */
  private static int poolResponsesToFollowASlowdown(LatencyModel m, int every) {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      double x = rnd.nextDouble(0.05, 1.0);
      if (i % every == 0) {
        m.observe("pod", x, x);
      }
    }
    for (int i = 1; i <= 100_000; i++) {
      double x = rnd.nextDouble(0.05, 1.0);
      if (i % every == 0) {
        m.observe("pod", x, 3 * x);
      }
      if (m.predict("pod", 0.5) >= 1.0) {
        return i;
      }
    }
    throw new AssertionError("never followed the slowdown");
  }

  @Test
  void aReplicaLearningFromItsShareFollowsASlowdownAsSoonAsOnePickerSeeingEveryResponse() {
    int alone = poolResponsesToFollowASlowdown(new LatencyModel(), 1);

    // given: four replicas split the responses, and this one learns from every fourth
    LatencyModel replica = new LatencyModel();
    replica.splitAmong(4);
    int split = poolResponsesToFollowASlowdown(replica, 4);

    // then: it follows after about as many of the pool's responses as one picker does, where a
    // replica forgetting per observation as one picker does would take about four times as many
    LatencyModel unaware = new LatencyModel();
    int slow = poolResponsesToFollowASlowdown(unaware, 4);
    assertThat(replica.splitAmong()).isEqualTo(4);
    assertThat((double) split).isBetween(0.75 * alone, 1.33 * alone);
    assertThat(slow).isGreaterThan(3 * alone);
  }

  @Test
  void howeverManyReplicasSplitTheResponsesOneObservationMovesTheFitByATenthAtMost() {
    LatencyModel m = new LatencyModel();
    m.splitAmong(1_000);
    for (int i = 0; i < 1_000; i++) {
      m.observe("pod", 0.5, 0.5);
    }
    // one request ten times slower than the others' pace
    m.observe("pod", 0.5, 5.5);
    assertThat(m.factor("pod")).isCloseTo(2.0, within(1e-9)); // 0.9 * 1 + 0.1 * 11
    assertThatThrownBy(() -> m.splitAmong(0)).hasMessageContaining("replicas: 0");
    m.splitAmong(1);
    assertThat(m.splitAmong()).isEqualTo(1);
  }

  @Test
  void ignoresNonsenseObservations() {
    LatencyModel m = new LatencyModel();
    m.observe("pod", -1, 0.5);
    m.observe("pod", 0.5, Double.NaN);
    m.observe("pod", 0.5, Double.POSITIVE_INFINITY);
    assertThat(m.observations("pod")).isZero();
    assertThatThrownBy(() -> new LatencyModel(0.5)).hasMessageContaining("forgetting: 0.5");
  }

  @Test
  void concurrentObserversKeepAConsistentFit() throws Exception {
    LatencyModel m = new LatencyModel();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    for (int t = 0; t < 4; t++) {
      pool.submit(
          () -> {
            for (int i = 0; i < 20_000; i++) {
              double x = (i % 100) / 100.0 + 0.01;
              m.observe("pod", x, 2 * x);
              m.predict("pod", x);
            }
          });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    assertThat(m.observations("pod")).isEqualTo(80_000);
    assertThat(m.predict("pod", 0.5)).isCloseTo(1.0, within(0.02));
  }
}
