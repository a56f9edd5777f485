package dev.pointsman.bench.routing.run;

import dev.pointsman.bench.routing.policy.Route;
import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * TTFT by class of traffic (a workload part's tenant and priority), for scenarios that declare
 * tenants or priorities (issue 18). TTFT is measured from the request's arrival at the gateway, so
 * a request's wait in flow control counts in it. Requests arriving in the warm-up are left out, as
 * in {@link Measurements}.
 *
 * @param name the class: {@code tenant=<t>} and/or {@code priority=<p>}
 * @param requests requests of the class in the measured window
 * @param shed refused (shed at once, or by flow control: TTL, overflow, eviction)
 * @param failed failed, or routed and without a first token by the end of the drain
 * @param p50TtftMs median TTFT of those that got a first token
 * @param p99TtftMs p99 TTFT of those that got a first token
 * @param withinSlo share of the class's requests (shed ones included) whose TTFT met the SLO
 */
public record FlowClasses(
    String name,
    int requests,
    int shed,
    int failed,
    double p50TtftMs,
    double p99TtftMs,
    double withinSlo) {

  /** A run's result, with its per-class breakdown. */
  public record Classed(RunResult result, List<FlowClasses> classes) {}

  /** The class of {@code r}, or null when it names neither tenant nor priority. */
  static String classOf(BenchRequest r) {
    if (r.tenant() == null && r.priority() == null) {
      return null;
    }
    String t = r.tenant() == null ? "" : "tenant=" + r.tenant();
    String p = r.priority() == null ? "" : "priority=" + r.priority();
    return t.isEmpty() ? p : p.isEmpty() ? t : t + " " + p;
  }

  static List<FlowClasses> of(PolicyRun run, double warmupMs, double ttftSloMs) {
    Map<String, List<Integer>> byClass = new TreeMap<>();
    List<BenchRequest> stream = run.stream();
    for (int i = 0; i < stream.size(); i++) {
      BenchRequest r = stream.get(i);
      String c = classOf(r);
      if (c != null && r.arrivalMs() >= warmupMs) {
        byClass.computeIfAbsent(c, k -> new ArrayList<>()).add(i);
      }
    }
    List<FlowClasses> out = new ArrayList<>();
    for (Map.Entry<String, List<Integer>> e : byClass.entrySet()) {
      int shed = 0;
      int failed = 0;
      int met = 0;
      double[] ttft = new double[e.getValue().size()];
      int n = 0;
      for (int i : e.getValue()) {
        Route.Outcome o = run.outcome(i);
        if (o == Route.Outcome.SHED) {
          shed++;
          continue;
        }
        double first = run.firstMs(i);
        if (o != Route.Outcome.ROUTED || Double.isNaN(first)) {
          failed++;
          continue;
        }
        double t = first - stream.get(i).arrivalMs();
        ttft[n++] = t;
        met += t <= ttftSloMs ? 1 : 0;
      }
      double[] sorted = Stats.sorted(ttft, n);
      out.add(
          new FlowClasses(
              e.getKey(),
              e.getValue().size(),
              shed,
              failed,
              n == 0 ? Double.NaN : Stats.quantile(sorted, 0.50),
              n == 0 ? Double.NaN : Stats.quantile(sorted, 0.99),
              e.getValue().isEmpty() ? 0 : (double) met / e.getValue().size()));
    }
    return out;
  }
}
