package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.policy.Policies;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --suite ablations}: the policies that are not what an operator would run instead — random
 * choice and the production scheduler with a single scorer each — next to round-robin and
 * pointsman, on S1–S5. They show what each signal alone is worth; they are kept out of the standard
 * run, whose time they would nearly double (they spend most loads in deep overload).
 */
final class AblationSuite implements Suite {
  @Override
  public String description() {
    return "random and single-scorer policies next to round-robin and pointsman, on S1–S5";
  }

  @Override
  public List<Scenario> scenarios() {
    return Scenarios.SHIPPED.stream().map(Scenarios::load).toList();
  }

  @Override
  public List<String> policies() {
    List<String> out = new ArrayList<>(Policies.ABLATIONS);
    out.add(1, "round-robin");
    out.add("pointsman");
    return out;
  }

  @Override
  public String summary(List<ScenarioResult> results) {
    StringBuilder sb = new StringBuilder("# Ablations: ").append(description());
    sb.append("\n\nKnee (highest load with p99 TTFT within the SLO) and p99 TTFT (ms) at the")
        .append(
            " scenario's headline load.\n\n| scenario | policy | knee | p99 TTFT @ headline |\n")
        .append("|---|---|---|---|\n");
    for (ScenarioResult r : results) {
      for (String policy : r.knee().keySet()) {
        Double knee = r.knee().get(policy);
        double p99 = ScenarioResult.meanP99(r.runs(), policy, r.headlineLoad());
        sb.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s |%n",
                r.scenario(),
                policy,
                knee == null ? "–" : String.format(Locale.ROOT, "%.0f%%", 100 * knee),
                Double.isNaN(p99) ? "–" : String.format(Locale.ROOT, "%.0f", p99)));
      }
    }
    return sb.toString();
  }
}
