package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Step noise, stragglers and restarts: each against the clean engine on the same requests. */
class ImperfectWorldTest {
  private static final long SEED = 42;

  private static Imperfections clean() {
    return Imperfections.CLEAN;
  }

  private static Imperfections only(
      Double sigma, Double stragglersPerHour, Double stragglerSeconds, Double restartsPerHour) {
    return new Imperfections(
        "clean", sigma, stragglersPerHour, 2.0, 3.0, stragglerSeconds, restartsPerHour, 5.0);
  }

  /** Token times of one request decoding alone on an H100, from its arrival at 0. */
  private static double[] tokenTimes(Imperfections world, long seed, int outputTokens) {
    double[] times = new double[outputTokens];
    EngineListener listener =
        new EngineListener() {
          @Override
          public void onToken(int pod, SimRequest request, int generated, double timeMs) {
            times[generated - 1] = timeMs;
          }
        };
    VirtualCluster cluster =
        new VirtualCluster(List.of(Harness.config("H100-80")), listener, world, seed);
    cluster.submit(Harness.request(1, 0, 200, outputTokens), 0);
    cluster.runUntilIdle();
    return times;
  }

  /** Duration of step k+1 (the one producing token k+1) over its clean duration. */
  private static double[] ratios(double[] noisy, double[] clean) {
    double[] r = new double[noisy.length - 1];
    for (int k = 0; k < r.length; k++) {
      r[k] = (noisy[k + 1] - noisy[k]) / (clean[k + 1] - clean[k]);
    }
    return r;
  }

  @Test
  void stepNoiseIsLogNormalWithMedianOneAndTheStatedSigma() {
    int n = 4001;
    double[] clean = tokenTimes(clean(), SEED, n);
    double[] ratio = ratios(tokenTimes(only(0.1, null, null, null), SEED, n), clean);

    double[] logs = Arrays.stream(ratio).map(Math::log).sorted().toArray();
    double median = Math.exp(logs[logs.length / 2]);
    double mean = Arrays.stream(logs).average().orElseThrow();
    double sd =
        Math.sqrt(Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum() / logs.length);
    // 4,000 draws: the standard error of the log-mean is 0.0016, of the log-sd 0.0011
    assertThat(median).isBetween(0.99, 1.01);
    assertThat(sd).isBetween(0.095, 0.105);
    assertThat(Arrays.stream(ratio).max().orElseThrow()).isGreaterThan(1.25);
  }

  @Test
  void noiseIsReproducibleForASeedAndDiffersAcrossSeeds() {
    Imperfections world = only(0.1, null, null, null);

    assertThat(tokenTimes(world, 7, 300)).containsExactly(tokenTimes(world, 7, 300));
    assertThat(tokenTimes(world, 8, 300)).isNotEqualTo(tokenTimes(world, 7, 300));
  }

  @Test
  void aStragglerSlowsStepsOnlyInsideItsWindow() {
    // one episode per 10 s on average, 3 s long; no step noise, so every ratio is 1 or the factor
    Imperfections world = only(null, 360.0, 3.0, null);
    int n = 6000;
    double[] noisy = tokenTimes(world, SEED, n);
    double[] ratio = ratios(noisy, tokenTimes(clean(), SEED, n));
    Disturbances schedule = new Disturbances(world, SEED, 0);

    int slowed = 0;
    int outside = 0;
    for (int k = 0; k < ratio.length; k++) {
      double start = noisy[k];
      Disturbances.Episode e = episodeAt(schedule, start);
      if (e == null) {
        outside++;
        assertThat(ratio[k]).as("step starting at %.1f ms", start).isCloseTo(1, within());
      } else {
        slowed++;
        assertThat(e.factor()).isBetween(2.0, 3.0);
        assertThat(ratio[k]).as("step starting at %.1f ms", start).isCloseTo(e.factor(), within());
      }
    }
    assertThat(slowed).isGreaterThan(100);
    assertThat(outside).isGreaterThan(100);
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-6);
  }

  private static Disturbances.Episode episodeAt(Disturbances schedule, double t) {
    for (int i = 0; ; i++) {
      Disturbances.Episode e = schedule.straggler(i);
      if (e.startMs() > t) {
        return null;
      }
      if (t < e.endMs()) {
        return e;
      }
    }
  }

  /** Records finishes and losses. */
  private static final class Outcomes implements EngineListener {
    final Map<Long, RequestResult> finished = new LinkedHashMap<>();
    final List<Long> lost = new ArrayList<>();

    @Override
    public void onFinish(RequestResult result) {
      finished.put(result.request().id(), result);
    }

    @Override
    public void onFailed(int pod, SimRequest request, double timeMs) {
      lost.add(request.id());
    }
  }

  /** A seed whose first restart falls between 3 s and 30 s. */
  private static long seedWithRestartBetween3And30s(Imperfections world) {
    for (long seed = 1; ; seed++) {
      double at = new Disturbances(world, seed, 0).restart(0).startMs();
      if (at > 3_000 && at < 30_000) {
        return seed;
      }
    }
  }

  @Test
  void aRestartLosesEveryLiveRequestEmptiesTheCacheAndRefusesRequestsWhileDown() {
    Imperfections world = only(null, null, null, 360.0);
    long seed = seedWithRestartBetween3And30s(world);
    Disturbances.Episode restart = new Disturbances(world, seed, 0).restart(0);
    EngineConfig config = Harness.config("H100-80").withApiOverheadMs(10);
    Outcomes out = new Outcomes();
    VirtualCluster cluster = new VirtualCluster(List.of(config), out, world, seed);

    // given a request that finished and cached its prompt, four decoding, one still pending
    cluster.submit(Harness.request(1, 0, 512, 10), 0);
    double busyAt = restart.startMs() - 500;
    cluster.runUntil(busyAt);
    for (long id = 2; id <= 5; id++) {
      cluster.submit(Harness.request(id, busyAt, 1000, 2000), 0);
    }
    cluster.runUntil(restart.startMs() - 5);
    cluster.submit(Harness.request(6, restart.startMs() - 5, 100, 10), 0);

    // when the restart comes
    cluster.runUntil(restart.startMs() + 1);

    // then every live request is lost, once, and the pod is empty and down
    assertThat(out.finished).containsOnlyKeys(1L);
    assertThat(out.lost).containsExactly(2L, 3L, 4L, 5L, 6L);
    PodSnapshot s = cluster.snapshot(0);
    assertThat(s.running() + s.waiting()).isZero();
    assertThat(s.usedBlocks()).isZero();
    assertThat(cluster.isUp(0)).isFalse();
    assertThat(cluster.pod(0).restarts()).isEqualTo(1);
    assertThat(cluster.pod(0).lostToRestarts()).isEqualTo(5);
    SimRequest tooEarly = Harness.request(7, restart.startMs() + 1, 512, 10);
    assertThatThrownBy(() -> cluster.submit(tooEarly, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("restarting");

    // and after the restart period it serves again, without the prefix it had cached
    cluster.runUntil(restart.endMs());
    assertThat(cluster.isUp(0)).isTrue();
    cluster.submit(Harness.request(1, restart.endMs(), 512, 10).at(restart.endMs()), 0);
    cluster.runUntilIdle();
    assertThat(out.finished.get(1L).cachedTokens()).isZero();
    assertThat(out.lost).hasSize(5);
  }

  @Test
  void withoutTheRestartTheSameRequestsFinishAndTheRepeatHitsTheCache() {
    Outcomes out = new Outcomes();
    VirtualCluster cluster =
        new VirtualCluster(List.of(Harness.config("H100-80")), out, clean(), 0);
    cluster.submit(Harness.request(1, 0, 512, 10), 0);
    cluster.runUntil(5_000);
    cluster.submit(Harness.request(2, 5_000, 1000, 2000), 0);
    cluster.runUntilIdle();
    cluster.submit(Harness.request(1, cluster.now(), 512, 10), 0);
    cluster.runUntilIdle();

    assertThat(out.lost).isEmpty();
    assertThat(out.finished.get(1L).cachedTokens()).isEqualTo(496);
  }

  @Test
  void anIdlePodThatRestartsLosesItsCacheToo() {
    Imperfections world = only(null, null, null, 360.0);
    long seed = seedWithRestartBetween3And30s(world);
    Disturbances.Episode restart = new Disturbances(world, seed, 0).restart(0);
    Outcomes out = new Outcomes();
    VirtualCluster cluster =
        new VirtualCluster(List.of(Harness.config("H100-80")), out, world, seed);
    cluster.submit(Harness.request(1, 0, 512, 10), 0);
    cluster.runUntilIdle();
    assertThat(cluster.now()).isLessThan(restart.startMs());

    cluster.runUntil(restart.endMs());
    cluster.submit(Harness.request(1, restart.endMs(), 512, 10), 0);
    cluster.runUntilIdle();

    assertThat(cluster.pod(0).restarts()).isEqualTo(1);
    assertThat(out.lost).isEmpty();
    assertThat(out.finished.get(1L).cachedTokens()).isZero();
  }

  @Test
  void restartsFallAtTheSameTimesWhateverThePodIsAskedToDo() {
    Imperfections world = only(null, null, null, 360.0);
    VirtualCluster idle =
        new VirtualCluster(List.of(Harness.config("H100-80")), EngineListener.NONE, world, 3);
    VirtualCluster busy =
        new VirtualCluster(List.of(Harness.config("H100-80")), EngineListener.NONE, world, 3);
    for (int i = 0; i < 200; i++) {
      double t = i * 300.0;
      busy.runUntil(t);
      if (busy.isUp(0)) {
        busy.submit(Harness.request(i, t, 300, 200), 0);
      }
    }
    idle.runUntil(60_000);
    busy.runUntil(60_000);

    assertThat(busy.pod(0).restarts()).isEqualTo(idle.pod(0).restarts()).isGreaterThan(1);
  }

  @Test
  void theRestartScheduleAskedForAnyTimeIsTheOneThePodLives() {
    Imperfections world = only(null, null, null, 360.0);
    VirtualCluster asked =
        new VirtualCluster(List.of(Harness.config("H100-80")), EngineListener.NONE, world, 5);
    VirtualCluster lived =
        new VirtualCluster(List.of(Harness.config("H100-80")), EngineListener.NONE, world, 5);
    // asked ahead of time, before the pod has lived it, then checked as it is lived
    boolean[] ahead = new boolean[600];
    for (int i = 0; i < ahead.length; i++) {
      ahead[i] = asked.restartingAt(0, i * 100.0);
    }
    int down = 0;
    for (int i = 0; i < ahead.length; i++) {
      double t = i * 100.0;
      lived.runUntil(t);
      assertThat(ahead[i]).as("%s ms", t).isEqualTo(!lived.isUp(0));
      assertThat(lived.restartingAt(0, (i / 2) * 100.0))
          .as("%s ms, asked later", (i / 2) * 100.0)
          .isEqualTo(ahead[i / 2]);
      down += ahead[i] ? 1 : 0;
    }
    assertThat(down).isPositive().isLessThan(ahead.length);
  }

  @Test
  void unsetFieldsComeFromTheBaseAndBadValuesAreNamed() {
    Imperfections partly = new Imperfections(null, 0.0, null, null, null, null, null, null);
    assertThat(partly.stepNoiseSigma()).isZero();
    assertThat(partly.restartsPerPodHour()).isEqualTo(Imperfections.REALISTIC.restartsPerPodHour());
    assertThat(Imperfections.CLEAN.isClean()).isTrue();
    assertThat(Imperfections.REALISTIC.isClean()).isFalse();

    assertThatThrownBy(() -> new Imperfections("noisy", null, null, null, null, null, null, null))
        .hasMessage("base: 'noisy' (expected one of [realistic, clean])");
    assertThatThrownBy(() -> new Imperfections(null, null, null, 3.0, 2.0, null, null, null))
        .hasMessageContaining("expected 1 <= min <= max");
    assertThatThrownBy(() -> new Imperfections(null, -0.1, null, null, null, null, null, null))
        .hasMessage("stepNoiseSigma: -0.1 (expected a finite value >= 0)");
  }
}
