package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code --suite replicas}: the same scenarios with 1, 2 (the Helm chart's default) and 4
 * independent picker replicas behind Envoy, each replica with its own scrapes, in-flight tracker,
 * prefix index and learned models. S1 (heterogeneous fleet: each replica's in-flight tracker sees
 * only its own picks), S3 (shared prefixes: the prefix index splits) and S5 (the mix).
 */
final class ReplicaSuite implements Suite {
  static final List<Integer> REPLICAS = List.of(1, 2, 4);
  static final List<String> SCENARIOS = List.of("s1-heterogeneous", "s3-shared-prefix", "s5-mixed");
  static final String INFIX = "-replicas-";

  @Override
  public String description() {
    return "1, 2 and 4 independent picker replicas on S1, S3 and S5";
  }

  @Override
  public List<Scenario> scenarios() {
    List<Scenario> out = new ArrayList<>();
    for (String name : SCENARIOS) {
      Scenario base = Scenarios.load(name);
      for (int n : REPLICAS) {
        out.add(
            base.withProduction(base.name() + INFIX + n, base.production().withPickerReplicas(n)));
      }
    }
    return out;
  }

  @Override
  public List<String> policies() {
    return List.of("round-robin", "gie-default", "pointsman");
  }

  @Override
  public String summary(List<ScenarioResult> results) {
    // base scenario -> replicas -> result
    Map<String, Map<Integer, ScenarioResult>> byBase = new LinkedHashMap<>();
    for (ScenarioResult r : results) {
      int n = r.definition().production().pickerReplicas();
      // a variant's name follows the replica count: s3-shared-prefix-replicas-2-groups
      String base = r.scenario().replace(INFIX + n, "");
      byBase.computeIfAbsent(base, k -> new LinkedHashMap<>()).put(n, r);
    }
    StringBuilder sb = new StringBuilder();
    sb.append("# Picker replicas: ").append(description()).append("\n\n");
    sb.append(
        "TTFT p50 / p99 in ms by number of picker replicas (each its own scrapes, in-flight"
            + " tracker, prefix index and learned models; Envoy least-request over them), and the"
            + " knee (highest load with p99 TTFT within the SLO).\n");
    for (Map.Entry<String, Map<Integer, ScenarioResult>> e : byBase.entrySet()) {
      Map<Integer, ScenarioResult> byN = e.getValue();
      ScenarioResult any = byN.values().iterator().next();
      sb.append("\n## ").append(e.getKey()).append("\n\n| policy | load |");
      for (int n : byN.keySet()) {
        sb.append(" ").append(n).append(n == 1 ? " replica |" : " replicas |");
      }
      sb.append("\n|---|---|");
      byN.keySet().forEach(n -> sb.append("---|"));
      sb.append('\n');
      List<String> policies = new ArrayList<>(any.knee().keySet());
      TreeSet<Double> loads = new TreeSet<>();
      any.runs().forEach(r -> loads.add(r.load()));
      for (String policy : policies) {
        for (double load : loads) {
          sb.append("| ").append(policy).append(" | ").append(format("%.2f", load)).append(" |");
          for (ScenarioResult r : byN.values()) {
            RunResult run = first(r, policy, load);
            sb.append(
                run == null
                    ? " – |"
                    : format(" %.0f / %.0f |", run.ttftMs().p50(), run.ttftMs().p99()));
          }
          sb.append('\n');
        }
        sb.append("| ").append(policy).append(" | knee |");
        for (ScenarioResult r : byN.values()) {
          Double knee = r.knee().get(policy);
          sb.append(knee == null ? " – |" : format(" %.2f |", knee));
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static RunResult first(ScenarioResult r, String policy, double load) {
    for (RunResult run : r.runs()) {
      if (run.policy().equals(policy) && Math.abs(run.load() - load) < 1e-9) {
        return run;
      }
    }
    return null;
  }

  private static String format(String f, Object... args) {
    return String.format(Locale.ROOT, f, args);
  }
}
