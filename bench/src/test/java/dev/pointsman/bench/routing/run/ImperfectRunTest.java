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
  static Scenario rare;
  static Capacity rareCapacity;

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
    // eight pods, each restarting every 2 min on average (a restart every 15 s in the fleet)
    Path rareFile = dir.resolve("rare.yaml");
    Files.writeString(
        rareFile,
        """
        name: rare
        fleet: [{gpu: H100-80, count: 8}]
        workload: [{kind: sharegpt}]
        loads: [0.5]
        durationSeconds: 60
        warmupSeconds: 5
        drainSeconds: 60
        world: {base: clean, restartsPerPodHour: 30, restartSeconds: 4}
        scrape: {lagMedianMs: 0, failureRate: 0}
        """);
    rare = Scenarios.load(rareFile.toString());
    rareCapacity = Capacity.calibrate(rare, 600, 5);
  }

  private static long measured(Scenario s, Capacity c, double load, long seed) {
    return RequestStream.generate(s, PolicyRun.rate(c, load), s.durationSeconds() * 1000, seed)
        .stream()
        .mapToDouble(BenchRequest::arrivalMs)
        .filter(t -> t >= s.warmupSeconds() * 1000)
        .count();
  }

  private static long measured(Scenario s, long seed) {
    return measured(s, capacity, 0.3, seed);
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
  void sglangsRouterSendsAgainWhatARestartingPodRefused() {
    // dynamo-kv (request migration off by default) and SGLang's router both keep sending to a
    // down pod until the endpoints drop it; SGLang's retries send those requests again and its
    // circuit breaker leaves the pod out after five refusals, so of its failures only the requests
    // lost in flight remain (and the odd one whose retries all found a pod down)
    RunResult sg = PolicyRun.run(rare, rareCapacity, "sglang-cache-aware", 0.5, 1);
    RunResult dyn = PolicyRun.run(rare, rareCapacity, "dynamo-kv", 0.5, 1);
    int sgRefused = sg.failed() - sg.lostInFlight();
    int dynRefused = dyn.failed() - dyn.lostInFlight();

    assertThat(dynRefused).isGreaterThan(20);
    assertThat(sgRefused).as("sglang %s, dynamo %s", sg, dyn).isLessThan(dynRefused / 10);
    assertThat(sg.completed() + sg.failed() + sg.shed())
        .isEqualTo(measured(rare, rareCapacity, 0.5, 1));
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
