package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class VirtualTimeTest {
  private static final String[] S1 = {"H100-80", "A100-80", "L4", "L4"};

  private static List<EngineConfig> fleet() {
    List<EngineConfig> configs = new ArrayList<>();
    for (int i = 0; i < S1.length; i++) {
      configs.add(EngineConfig.of("pod-" + i, "m", Harness.PROFILES.get(S1[i])));
    }
    return configs;
  }

  private static List<String> runWorkload(long seed) {
    List<String> log = new ArrayList<>();
    EngineListener listener =
        new EngineListener() {
          @Override
          public void onFinish(RequestResult r) {
            log.add(r.toString());
          }
        };
    VirtualCluster cluster = new VirtualCluster(fleet(), listener);
    SplittableRandom random = new SplittableRandom(seed);
    ShareGptLengths lengths = new ShareGptLengths(random);
    double t = 0;
    for (int id = 0; id < 2000; id++) {
      t += -Math.log(1 - random.nextDouble()) * 1000 / 40.0;
      cluster.runUntil(t);
      int in = lengths.input();
      List<Segment> prompt = List.of(new Segment(random.nextInt(20), 64), new Segment(id, in));
      String adapter = random.nextInt(4) == 0 ? "lora-" + random.nextInt(6) : "";
      SimRequest r = new SimRequest(id, t, prompt, lengths.output(in), adapter, ~id);
      cluster.submit(r, random.nextInt(S1.length));
    }
    cluster.runUntilIdle();
    for (int i = 0; i < cluster.size(); i++) {
      log.add(cluster.snapshot(i).toString());
    }
    return log;
  }

  @Test
  void runsAreDeterministicForASeed() {
    List<String> first = runWorkload(7);
    List<String> second = runWorkload(7);

    assertThat(first).hasSize(2000 + S1.length).isEqualTo(second);
    assertThat(runWorkload(8)).isNotEqualTo(first);
  }

  @Test
  void probeOnACloneMatchesWhatThenHappensAndLeavesThePodUnchanged() {
    VirtualCluster cluster = new VirtualCluster(fleet(), EngineListener.NONE);
    Harness.Recorder rec = new Harness.Recorder();
    VirtualCluster observed = new VirtualCluster(fleet(), rec);
    for (int i = 0; i < 30; i++) {
      SimRequest r = Harness.request(i, i * 10.0, 300, 100);
      cluster.submit(r, 2);
      observed.submit(r, 2);
    }
    cluster.runUntil(400);
    observed.runUntil(400);
    SimRequest probe = Harness.request(99, 400, 500, 10);
    String before = cluster.snapshot(2).toString();

    OptionalDouble predicted = cluster.probeTtftMs(probe, 2);

    assertThat(cluster.snapshot(2).toString()).isEqualTo(before);
    observed.submit(probe, 2);
    observed.runUntilIdle();
    assertThat(predicted).hasValue(rec.results.get(99L).ttftMs());
  }

  @Test
  void abortFreesTheRequestsBlocks() {
    VirtualCluster cluster = new VirtualCluster(fleet(), EngineListener.NONE);
    cluster.submit(Harness.request(1, 0, 2000, 1000), 0);
    cluster.runUntil(500);
    assertThat(cluster.snapshot(0).usedBlocks()).isPositive();

    assertThat(cluster.abort(1, 0)).isTrue();

    assertThat(cluster.snapshot(0).usedBlocks()).isZero();
    assertThat(cluster.snapshot(0).running()).isZero();
    assertThat(cluster.snapshot(0).counters().aborted()).isEqualTo(1);
    assertThat(cluster.abort(1, 0)).isFalse();
  }

  @Test
  void submittingInThePastIsRejected() {
    VirtualCluster cluster = new VirtualCluster(fleet(), EngineListener.NONE);
    cluster.runUntil(100);

    assertThatThrownBy(() -> cluster.submit(Harness.request(1, 50, 10, 10), 0))
        .hasMessageContaining("arrivalMs 50.0 (expected >= now 100.0)");
  }
}
