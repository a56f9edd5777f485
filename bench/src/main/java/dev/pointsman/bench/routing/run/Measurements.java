package dev.pointsman.bench.routing.run;

import dev.pointsman.bench.routing.policy.Route;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.List;

/** Turns a finished {@link PolicyRun} into a {@link RunResult}. */
final class Measurements {
  private final Scenario scenario;
  private final Capacity capacity;
  private final PolicyRun run;

  Measurements(Scenario scenario, Capacity capacity, PolicyRun run) {
    this.scenario = scenario;
    this.capacity = capacity;
    this.run = run;
  }

  RunResult result() {
    List<BenchRequest> stream = run.stream();
    double warmupMs = scenario.warmupSeconds() * 1000;
    double endMs = (scenario.durationSeconds() + scenario.drainSeconds()) * 1000;
    double windowS = scenario.durationSeconds() - scenario.warmupSeconds();
    int n = stream.size();
    double[] ttft = new double[n];
    double[] tpot = new double[n];
    double[] e2e = new double[n];
    int nt = 0;
    int np = 0;
    int ne = 0;
    int completed = 0;
    int failed = 0;
    int lostInFlight = 0;
    int shed = 0;
    int cut = 0;
    int good = 0;
    long promptTokens = 0;
    long cachedTokens = 0;
    double apeSum = 0;
    int apeN = 0;
    double tpotApeSum = 0;
    int tpotApeN = 0;
    int[] perPod = new int[run.pods()];
    for (int i = 0; i < n; i++) {
      BenchRequest r = stream.get(i);
      if (r.arrivalMs() < warmupMs) {
        continue;
      }
      cut += r.cut() ? 1 : 0;
      Route.Outcome o = run.outcome(i);
      if (o == Route.Outcome.SHED) {
        shed++;
        continue;
      }
      if (o != Route.Outcome.ROUTED) {
        failed++;
        lostInFlight += run.lostInFlight(i) ? 1 : 0;
        continue;
      }
      perPod[run.podOf(i)]++;
      double first = run.firstMs(i);
      if (Double.isNaN(first)) {
        failed++;
        ttft[nt++] = endMs - r.arrivalMs();
        continue;
      }
      double t = first - r.arrivalMs();
      ttft[nt++] = t;
      double pred = run.predicted(i);
      if (!Double.isNaN(pred) && t > 0) {
        apeSum += Math.abs(pred - t) / t;
        apeN++;
      }
      double finish = run.finishMs(i);
      if (Double.isNaN(finish)) {
        failed++;
        continue;
      }
      completed++;
      int out = r.sim().outputTokens();
      double perToken = out <= 1 ? 0 : (finish - first) / (out - 1);
      if (out > 1) {
        tpot[np++] = perToken;
        double predTpot = run.predictedTpot(i);
        if (!Double.isNaN(predTpot) && perToken > 0) {
          tpotApeSum += Math.abs(predTpot - perToken) / perToken;
          tpotApeN++;
        }
      }
      e2e[ne++] = finish - r.arrivalMs();
      promptTokens += r.sim().promptTokens();
      cachedTokens += run.cached(i);
      if (t <= scenario.slo().ttftMs() && perToken <= scenario.slo().tpotMs()) {
        good++;
      }
    }
    double[] sortedTtft = Stats.sorted(ttft, nt);
    double[] podCapacity = capacity.perPod();
    double[] relative = new double[perPod.length];
    for (int p = 0; p < perPod.length; p++) {
      relative[p] = podCapacity[p] > 0 ? perPod[p] / podCapacity[p] : 0;
    }
    return new RunResult(
        run.policyName(),
        run.load(),
        run.seed(),
        PolicyRun.rate(capacity, run.load()),
        completed,
        failed,
        lostInFlight,
        shed,
        cut,
        RunResult.Ttft.of(sortedTtft),
        RunResult.Tail.of(Stats.sorted(tpot, np)),
        RunResult.Tail.of(Stats.sorted(e2e, ne)),
        run.counterDelta(0) / windowS,
        good / windowS,
        promptTokens == 0 ? 0 : (double) cachedTokens / promptTokens,
        run.counterDelta(4) == 0 ? 0 : (double) run.counterDelta(3) / run.counterDelta(4),
        run.counterDelta(1),
        run.counterDelta(2),
        Stats.cv(relative),
        apeN == 0 ? null : apeSum / apeN,
        tpotApeN == 0 ? null : tpotApeSum / tpotApeN,
        perPod,
        sortedTtft,
        FlowClasses.of(run, warmupMs, scenario.slo().ttftMs()));
  }
}
