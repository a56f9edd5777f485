package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.policy.MismatchPriors;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.sim.engine.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * {@code --suite mismatch}: pointsman with its built-in speed prior next to variants whose prior is
 * wrong (off by ×0.5 or ×2 per GPU type, no GPU labels, a model shape it has never seen), on the S1
 * fleet, with round-robin for scale.
 */
final class MismatchSuite implements Suite {
  static final String SCENARIO = "mismatch/m1-heterogeneous";
  private static final String RESOURCE_DIR = "/dev/pointsman/bench/scenarios/";

  @Override
  public String description() {
    return "pointsman with wrong speed priors next to its matched prior, on the S1 fleet";
  }

  @Override
  public List<Scenario> scenarios() {
    try (InputStream in =
        MismatchSuite.class.getResourceAsStream(RESOURCE_DIR + SCENARIO + ".yaml")) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE_DIR + SCENARIO + ".yaml");
      }
      return List.of(YamlFiles.read(in, Scenario.class, SCENARIO + ".yaml"));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read suite scenario " + SCENARIO, e);
    }
  }

  @Override
  public List<String> policies() {
    List<String> out = new ArrayList<>(List.of("round-robin", "pointsman"));
    out.addAll(MismatchPriors.NAMES);
    return out;
  }

  @Override
  public String summary(List<ScenarioResult> results) {
    StringBuilder sb = new StringBuilder("# Speed-prior mismatch: ").append(description());
    sb.append(
        "\n\nTTFT p99 in ms by load (mean over the seeds), and the knee (highest load within the"
            + " SLO).\n");
    for (ScenarioResult r : results) {
      TreeSet<Double> loads = new TreeSet<>();
      r.runs().forEach(run -> loads.add(run.load()));
      sb.append("\n## ").append(r.scenario()).append(" (").append(r.definition().split());
      sb.append(")\n\n| policy | knee |");
      loads.forEach(l -> sb.append(String.format(Locale.ROOT, " p99 @ %.2f |", l)));
      sb.append("\n|---|---|");
      loads.forEach(l -> sb.append("---|"));
      sb.append('\n');
      for (String policy : r.knee().keySet()) {
        Double knee = r.knee().get(policy);
        sb.append("| ").append(policy).append(" | ");
        sb.append(knee == null ? "–" : String.format(Locale.ROOT, "%.2f", knee)).append(" |");
        for (double load : loads) {
          sb.append(p99(r, policy, load));
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  /** The p99 TTFT cell: the mean over the seeds run at that load. */
  static String p99(ScenarioResult r, String policy, double load) {
    double p99 = ScenarioResult.meanP99(r.runs(), policy, load);
    return Double.isNaN(p99) ? " – |" : String.format(Locale.ROOT, " %.0f |", p99);
  }
}
