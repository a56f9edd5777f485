package dev.pointsman.bench.routing.run;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.pointsman.bench.routing.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every run of one scenario, with the figures derived across the ladder: the knee per policy and
 * the share of the round-robin-to-greedy-lookahead gap each policy captures, where that gap is wide
 * enough to divide by ({@link #MIN_GAP_SHARE}).
 *
 * @param scenario scenario name
 * @param description one line
 * @param fleetCapacityReqPerS calibrated fleet capacity (100% load)
 * @param capacityPerProfile calibrated saturation throughput of one pod per GPU profile
 * @param headlineLoad the load of the headline table and CDF chart
 * @param runs every run
 * @param knee per policy, the highest ladder load up to which p99 TTFT stays within the SLO with
 *     nothing failed and no non-sheddable request shed (0 when even the lowest load fails)
 * @param lookaheadGapCaptured per policy, (RR − X) ÷ (RR − lookahead) on p99 TTFT at round-robin's
 *     knee load (its lowest load when it has no knee); empty when the gap is narrower than {@link
 *     #MIN_GAP_SHARE} of round-robin's p99, where the ratio explodes
 * @param gapLoad the load at which the gap is read
 */
@JsonPropertyOrder({
  "scenario",
  "description",
  "fleetCapacityReqPerS",
  "capacityPerProfile",
  "headlineLoad",
  "gapLoad",
  "runs",
  "knee",
  "lookaheadGapCaptured"
})
public record ScenarioResult(
    String scenario,
    String description,
    double fleetCapacityReqPerS,
    Map<String, Double> capacityPerProfile,
    double headlineLoad,
    Double gapLoad,
    List<RunResult> runs,
    Map<String, Double> knee,
    Map<String, Double> lookaheadGapCaptured,
    @JsonIgnore Scenario definition) {

  /**
   * The gap RR − lookahead must be at least this share of RR's p99 for the captured share to be
   * reported: below it the denominator is small next to the seed noise of the numerator and the
   * ratio explodes (a lookahead 5% under round-robin makes a policy 10% under it "200%").
   */
  public static final double MIN_GAP_SHARE = 0.5;

  /** Derives knees and gaps from the runs. */
  public static ScenarioResult of(
      Scenario s, Capacity capacity, List<String> policies, List<RunResult> runs) {
    List<RunResult> sorted = new ArrayList<>(runs);
    sorted.sort(
        (a, b) -> {
          int c = Integer.compare(policies.indexOf(a.policy()), policies.indexOf(b.policy()));
          if (c != 0) {
            return c;
          }
          c = Double.compare(a.load(), b.load());
          return c != 0 ? c : Long.compare(a.seed(), b.seed());
        });
    Map<String, Double> knee = new LinkedHashMap<>();
    for (String p : policies) {
      knee.put(p, knee(s, sorted, p));
    }
    Map<String, Double> gap = new LinkedHashMap<>();
    Double gapLoad = null;
    if (policies.contains("round-robin") && policies.contains("greedy-lookahead")) {
      double rrKnee = knee.get("round-robin");
      gapLoad = rrKnee > 0 ? rrKnee : s.loads().get(0);
      double rr = meanP99(sorted, "round-robin", gapLoad);
      double lookahead = meanP99(sorted, "greedy-lookahead", gapLoad);
      if (rr - lookahead >= MIN_GAP_SHARE * rr && rr > 0) {
        for (String p : policies) {
          gap.put(p, (rr - meanP99(sorted, p, gapLoad)) / (rr - lookahead));
        }
      }
    }
    return new ScenarioResult(
        s.name(),
        s.description(),
        capacity.fleetRequestsPerSecond(),
        capacity.perProfile(),
        s.headline(),
        gapLoad,
        List.copyOf(sorted),
        knee,
        gap,
        s);
  }

  private static double knee(Scenario s, List<RunResult> runs, String policy) {
    double knee = 0;
    for (double load : s.loads()) {
      List<RunResult> at = at(runs, policy, load);
      if (at.isEmpty()) {
        break;
      }
      boolean ok = meanP99(runs, policy, load) <= s.slo().kneeP99TtftMs();
      for (RunResult r : at) {
        // Only sheddable requests are ever shed (the scheduler checks), so a shed never fails it.
        ok &= r.failed() == 0;
      }
      if (!ok) {
        break;
      }
      knee = load;
    }
    return knee;
  }

  /** p99 TTFT at {@code load}, averaged over seeds. */
  public static double meanP99(List<RunResult> runs, String policy, double load) {
    return mean(at(runs, policy, load), r -> r.ttftMs().p99());
  }

  public static double mean(
      List<RunResult> runs, java.util.function.ToDoubleFunction<RunResult> f) {
    if (runs.isEmpty()) {
      return Double.NaN;
    }
    double sum = 0;
    for (RunResult r : runs) {
      sum += f.applyAsDouble(r);
    }
    return sum / runs.size();
  }

  public static List<RunResult> at(List<RunResult> runs, String policy, double load) {
    List<RunResult> out = new ArrayList<>();
    for (RunResult r : runs) {
      if (r.policy().equals(policy) && Math.abs(r.load() - load) < 1e-9) {
        out.add(r);
      }
    }
    return out;
  }

  /** Runs of {@code policy} at {@code load}, over seeds. */
  public List<RunResult> at(String policy, double load) {
    return at(runs, policy, load);
  }

  /** Policies present, in report order. */
  public List<String> policies() {
    return List.copyOf(knee.keySet());
  }

  /** Loads present, ascending. */
  public List<Double> loads() {
    TreeSet<Double> loads = new TreeSet<>();
    for (RunResult r : runs) {
      loads.add(r.load());
    }
    return List.copyOf(loads);
  }
}
