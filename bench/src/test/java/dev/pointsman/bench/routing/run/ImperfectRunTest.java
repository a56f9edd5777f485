package dev.pointsman.bench.routing.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.RequestStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole runs with restarting pods: every request accounted for, and the same for a seed. */
class ImperfectRunTest {
  static Scenario restarts;
  static Capacity capacity;

  @BeforeAll
  static void scenario(@TempDir Path dir) throws Exception {
    // four pods restarting every 10 s on average, down 4 s each time; nothing else imperfect
    Path file = dir.resolve("restarts.yaml");
    Files.writeString(
        file,
        """
        name: restarts
        fleet: [{gpu: H100-80, count: 4}]
        workload: [{kind: sharegpt}]
        loads: [0.3]
        durationSeconds: 40
        warmupSeconds: 5
        drainSeconds: 60
        world: {base: clean, restartsPerPodHour: 360, restartSeconds: 4}
        scrape: {lagMedianMs: 0, failureRate: 0}
        """);
    restarts = Scenarios.load(file.toString());
    capacity = Capacity.calibrate(restarts, 600, 5);
  }

  private static long measured(Scenario s, long seed) {
    return RequestStream.generate(
            s, PolicyRun.rate(capacity, 0.3), s.durationSeconds() * 1000, seed)
        .stream()
        .mapToDouble(BenchRequest::arrivalMs)
        .filter(t -> t >= s.warmupSeconds() * 1000)
        .count();
  }

  @Test
  void requestsLostToRestartsAreFailuresAndEveryRequestIsAccountedFor() {
    for (String policy : new String[] {"round-robin", "pointsman"}) {
      RunResult r = PolicyRun.run(restarts, capacity, policy, 0.3, 1);

      assertThat(r.failed()).as(policy).isPositive();
      assertThat(r.completed() + r.failed() + r.shed()).as(policy).isEqualTo(measured(restarts, 1));
    }
  }

  @Test
  void theSameRequestsInTheCleanWorldAllSucceed() {
    Scenario clean = restarts.inCleanWorld();
    RunResult r = PolicyRun.run(clean, capacity, "round-robin", 0.3, 1);

    assertThat(r.failed()).isZero();
    assertThat(r.completed()).isEqualTo(measured(clean, 1));
  }

  @Test
  void thePickerStopsSendingToARestartingPodOnceItsScrapesFail() {
    // both lose the requests in flight at each restart; round-robin then keeps sending a quarter of
    // the traffic to the pod until Kubernetes' endpoints drop it (2 s of its 4 s down), where the
    // picker sees three failed scrapes (150 ms) and routes around it (seed 1: 924 failures against
    // 528, most of them lost in flight; 1,279 for round-robin before it read the endpoints)
    RunResult rr = PolicyRun.run(restarts, capacity, "round-robin", 0.3, 1);
    RunResult pm = PolicyRun.run(restarts, capacity, "pointsman", 0.3, 1);

    assertThat(pm.failed()).isLessThan(rr.failed() * 7 / 10);
  }

  @Test
  void aRunIsTheSameForTheSameSeed() {
    Scenario noisy = Scenarios.load("s1").quickVersion();
    Capacity c = Capacity.calibrate(noisy, 600, 5);
    RunResult a = PolicyRun.run(noisy, c, "pointsman", 0.5, 3);
    RunResult b = PolicyRun.run(noisy, c, "pointsman", 0.5, 3);
    RunResult clean = PolicyRun.run(noisy.inCleanWorld(), c, "pointsman", 0.5, 3);

    assertThat(b.ttftMs()).isEqualTo(a.ttftMs());
    assertThat(b.completed()).isEqualTo(a.completed());
    assertThat(clean.ttftMs()).isNotEqualTo(a.ttftMs());
  }
}
