package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.picker.config.ReplicationSection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code --suite replicas}: the same scenarios with 1, 2 (the Helm chart's default) and 4 picker
 * replicas behind Envoy, each replica with its own scrapes, in-flight tracker, prefix index and
 * learned models; 2 and 4 both independent and sharing what they learn ({@code production.sharing},
 * instances named {@code …-replicas-N-shared}). S1 (heterogeneous fleet: each replica's in-flight
 * tracker sees only its own picks), S3 (shared prefixes: the prefix index splits) and S5 (the mix).
 */
final class ReplicaSuite implements Suite {
  static final List<Integer> REPLICAS = List.of(1, 2, 4);
  static final List<String> SCENARIOS = List.of("s1-heterogeneous", "s3-shared-prefix", "s5-mixed");
  static final String INFIX = "-replicas-";
  static final String SHARED = "-shared";

  @Override
  public String description() {
    return "1, 2 and 4 picker replicas, independent and sharing, on S1, S3 and S5";
  }

  @Override
  public List<Scenario> scenarios() {
    List<Scenario> out = new ArrayList<>();
    for (String name : SCENARIOS) {
      Scenario base = Scenarios.load(name);
      for (int n : REPLICAS) {
        out.add(
            base.withProduction(base.name() + INFIX + n, base.production().withPickerReplicas(n)));
        if (n > 1) {
          out.add(
              base.withProduction(
                  base.name() + INFIX + n + SHARED,
                  base.production().withPickerReplicas(n).withSharing(true)));
        }
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
    // base scenario -> column (replicas, shared or not) -> result
    Map<String, Map<String, ScenarioResult>> byBase = new LinkedHashMap<>();
    for (ScenarioResult r : results) {
      int n = r.definition().production().pickerReplicas();
      boolean shared = r.definition().production().sharing();
      // a variant's name follows the replica count: s3-shared-prefix-replicas-2-groups
      String base = r.scenario().replace(INFIX + n + (shared ? SHARED : ""), "");
      String column = n + (n == 1 ? " replica" : shared ? " shared" : " replicas");
      byBase.computeIfAbsent(base, k -> new LinkedHashMap<>()).put(column, r);
    }
    StringBuilder sb = new StringBuilder();
    sb.append("# Picker replicas: ").append(description()).append("\n\n");
    sb.append(
        "TTFT p50 / p99 in ms by number of picker replicas (each its own scrapes, in-flight"
            + " tracker, prefix index and learned models; Envoy least-request over them;"
            + " \"shared\": pointsman's replicas share picks, latencies and in-flight work every "
            + ReplicationSection.DEFAULTS.batchMillis()
            + " ms, 1 ms on the wire), and the knee (highest load with p99 TTFT within the"
            + " SLO).\n");
    for (Map.Entry<String, Map<String, ScenarioResult>> e : byBase.entrySet()) {
      Map<String, ScenarioResult> byN = e.getValue();
      ScenarioResult any = byN.values().iterator().next();
      sb.append("\n## ").append(e.getKey()).append(" (").append(any.definition().split());
      sb.append(")\n\n| policy | load |");
      for (String column : byN.keySet()) {
        sb.append(" ").append(column).append(" |");
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
