package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.Stats;
import dev.pointsman.bench.routing.scenario.Scenario;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The pods-needed summary: per scenario, per policy the pods needed on each seed, their mean with
 * the 95% t-interval and the seed-wise maximum, and the same as cost per hour; then pointsman
 * against the best baseline, a win or a loss only where the intervals separate.
 */
final class PodsNeededReport {
  /** Policies that are not baselines: the product, and the lookahead that no gateway could run. */
  static final List<String> NOT_BASELINES = List.of("pointsman", "greedy-lookahead");

  private PodsNeededReport() {}

  /**
   * Whether {@code policy} competes as a baseline: a shipped policy other than the product, its
   * variants and the lookahead. Operator-written policies ({@code --policy-file}, such as an old
   * default kept for a before-and-after) are reported but never the best baseline.
   */
  static boolean isBaseline(String policy) {
    return dev.pointsman.bench.routing.policy.Policies.ALL.contains(policy)
        && !NOT_BASELINES.contains(policy);
  }

  /**
   * Pods needed by one policy over seeds.
   *
   * @param pods per seed, the smallest passing fleet, or -1 when the largest tried failed
   * @param costs per seed, its cost per hour (NaN when none passed)
   * @param maxPods the largest fleet tried: a seed that failed it needs more
   * @param moved whether doubling the measured window moved some seed's figure by more than {@link
   *     PodsNeeded#MOVED_SHARE}
   */
  record Row(String policy, int[] pods, double[] costs, int maxPods, boolean moved) {
    Row(String policy, int[] pods, double[] costs, int maxPods) {
      this(policy, pods, costs, maxPods, false);
    }

    boolean complete() {
      for (int p : pods) {
        if (p < 0) {
          return false;
        }
      }
      return pods.length > 0;
    }

    double mean() {
      return complete() ? Stats.mean(asDoubles(pods)) : Double.POSITIVE_INFINITY;
    }

    double halfWidth() {
      return complete() ? Stats.halfWidth95(asDoubles(pods)) : Double.NaN;
    }

    /**
     * The interval's ends; a single seed or identical seeds give the point itself. With a seed that
     * failed the largest fleet the interval is unbounded above and starts at the fewest pods any
     * seed can need (a failed seed needs more than the largest fleet).
     */
    double low() {
      if (!complete()) {
        int least = maxPods + 1;
        for (int p : pods) {
          least = p < 0 ? least : Math.min(least, p);
        }
        return least;
      }
      double h = halfWidth();
      return mean() - (Double.isNaN(h) ? 0 : h);
    }

    double high() {
      double h = halfWidth();
      return complete() ? mean() + (Double.isNaN(h) ? 0 : h) : Double.POSITIVE_INFINITY;
    }
  }

  /** Win, loss or neither for {@code product} against {@code baseline}. */
  static String verdict(Row product, Row baseline) {
    if (product.high() < baseline.low()) {
      return "win";
    }
    if (baseline.high() < product.low()) {
      return "loss";
    }
    return "no separation";
  }

  static String markdown(
      List<PodsNeeded.Scenario> plans,
      List<String> policies,
      List<Long> seeds,
      List<PodsNeeded.Outcome> outcomes,
      GpuPrices prices,
      boolean quick) {
    StringBuilder sb = new StringBuilder("# Pods needed for the SLO\n\n");
    sb.append(
            "Per scenario at a stated request rate, per policy and seed: the smallest fleet (the"
                + " scenario's GPU mix scaled in whole pods: one pod of each pool first, then pods in"
                + " Sainte-Laguë order of the scenario's counts, so fleets are nested and the"
                + " scenario's own fleet is one of them) whose p99 TTFT meets the scenario's knee SLO"
                + " with at least 99.9% of the measured requests served; monotone search from the"
                + " scenario's own size (bisect below it, or double and bisect), each size run once."
                + " Mean and 95% t-interval over seeds (n = ")
        .append(seeds.size())
        .append(", seeds ")
        .append(seeds)
        .append(
            "), and the seed-wise maximum (what one would provision for the worst seed seen)."
                + " Each figure is rerun with the measured window doubled (pods added one at a"
                + " time where it fails there); a verdict resting on a figure that this moves by"
                + " more than 10% is rejected; a latency comparison is rejected where doubling the"
                + " window moves its ratio by more than 10%. Cost: ")
        .append(prices.currency())
        .append(" per hour, on-demand, ")
        .append(prices.region())
        .append(" (bench/src/main/resources/dev/pointsman/bench/prices/gpu-prices.yaml, ")
        .append(prices.retrieved())
        .append(")")
        .append(quick ? ". **--quick**: short runs, S1 and S5 only." : ".")
        .append("\n");
    for (PodsNeeded.Scenario plan : plans) {
      scenario(sb, plan, policies, seeds, outcomes, prices);
    }
    return sb.toString();
  }

  private static void scenario(
      StringBuilder sb,
      PodsNeeded.Scenario plan,
      List<String> policies,
      List<Long> seeds,
      List<PodsNeeded.Outcome> outcomes,
      GpuPrices prices) {
    Scenario s = plan.scenario();
    sb.append("\n## ").append(s.name()).append(" (").append(s.split()).append(")\n\n");
    sb.append(
        format(
            "- Rate: %s req/s (%s); base fleet %s (%d pods, %s/h); searched %d–%d pods\n",
            rate(plan.rate()),
            plan.rateSource(),
            fleet(plan.scaling(), plan.scaling().basePods()),
            plan.scaling().basePods(),
            money(prices.fleetPerHour(s.fleet())),
            plan.scaling().minPods(),
            plan.maxPods()));
    sb.append(
        format(
            "- SLO: p99 TTFT ≤ %.0f ms, ≥ 99.9%% served; %.0f s per run, first %.0f s warm-up\n\n",
            s.slo().kneeP99TtftMs(), s.durationSeconds(), s.warmupSeconds()));
    if (plan.floor() != null) {
      sb.setLength(sb.length() - 1); // the floor's line joins the list above the table
      sb.append(floorLine(plan)).append("\n");
    }
    sb.append(
        "| policy | pods per seed | pods: mean [95% CI] | max | $/h: mean [95% CI] | $/h at max"
            + " | 2× window: pods per seed | runs |\n|---|---|---|---|---|---|---|---|\n");
    List<Row> rows = new ArrayList<>();
    for (String policy : policies) {
      Row row = row(plan, policy, outcomes, prices);
      rows.add(row);
      int runs = 0;
      for (PodsNeeded.Outcome o : outcomes) {
        if (o.scenario().equals(s.name()) && o.policy().equals(policy)) {
          runs += o.runs();
        }
      }
      sb.append("| ").append(policy).append(policy.equals("round-robin") ? " (floor)" : "");
      sb.append(" | ").append(perSeed(row.pods(), plan.maxPods()));
      sb.append(" | ").append(interval(row, plan.maxPods()));
      sb.append(" | ").append(max(row.pods(), plan.maxPods()));
      sb.append(" | ").append(costInterval(row));
      sb.append(" | ").append(maxCost(row, plan, prices));
      sb.append(" | ").append(doubled(s.name(), policy, outcomes));
      sb.append(" | ").append(runs).append(" |\n");
    }
    sb.append('\n').append(verdicts(rows));
    failures(sb, s.name(), outcomes);
    decodingAtPods(sb, s, policies, outcomes);
    latencyOnOwnFleet(sb, plan, policies, seeds, outcomes, rows);
    sb.append('\n');
  }

  /**
   * The p99 TTFT of one policy on the scenario's own fleet at the stated rate, per seed, in the
   * scenario's window and in the doubled one.
   */
  record Latency(String policy, double[] p99Ms, double[] doubledP99Ms) {
    boolean complete() {
      return p99Ms.length > 0 && !Double.isNaN(Stats.mean(p99Ms));
    }

    double low() {
      return low(p99Ms);
    }

    double high() {
      return high(p99Ms);
    }

    double doubledLow() {
      return low(doubledP99Ms);
    }

    double doubledHigh() {
      return high(doubledP99Ms);
    }

    private static double low(double[] values) {
      return Stats.mean(values) - halfWidth(values);
    }

    private static double high(double[] values) {
      return Stats.mean(values) + halfWidth(values);
    }

    private static double halfWidth(double[] values) {
      double h = Stats.halfWidth95(values);
      return Double.isNaN(h) ? 0 : h;
    }

    /**
     * The seeds whose p99 doubling the window moved by more than {@link #MOVED_P99}, as "seed N a →
     * b ms" (a seed missing in the doubled window counts as moved).
     */
    List<String> movedSeeds(List<Long> seeds) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < p99Ms.length; i++) {
        double d = doubledP99Ms[i];
        if (Double.isNaN(d) || Math.abs(d - p99Ms[i]) > MOVED_P99 * p99Ms[i]) {
          out.add(
              format(
                  "%s seed %s %,.0f → %s ms",
                  policy,
                  i < seeds.size() ? seeds.get(i) : "#" + (i + 1),
                  p99Ms[i],
                  Double.isNaN(d) ? "–" : format("%,.0f", d)));
        }
      }
      return out;
    }
  }

  /**
   * How much doubling the window may move a latency comparison's figure (the ratio of the two mean
   * p99s) before it is rejected; seeds whose own p99 moves more are named beside the verdict.
   */
  static final double MOVED_P99 = 0.10;

  static Latency latency(String scenario, String policy, List<PodsNeeded.Outcome> outcomes) {
    List<Double> p99 = new ArrayList<>();
    List<Double> doubled = new ArrayList<>();
    for (PodsNeeded.Outcome o : outcomes) {
      if (o.scenario().equals(scenario) && o.policy().equals(policy)) {
        p99.add(o.onOwnFleet() == null ? Double.NaN : o.onOwnFleet().p99Ms());
        doubled.add(o.onOwnFleetDoubled() == null ? Double.NaN : o.onOwnFleetDoubled().p99Ms());
      }
    }
    return new Latency(
        policy,
        p99.stream().mapToDouble(Double::doubleValue).toArray(),
        doubled.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * Latency where it means something: every policy's p99 TTFT on the scenario's own fleet at the
   * stated rate (the best baseline's knee), then pointsman against the best baseline, lower or
   * higher only where the 95% intervals separate, and rejected where doubling the window moves
   * either figure by more than {@link #MOVED_P99} on some seed.
   */
  private static void latencyOnOwnFleet(
      StringBuilder sb,
      PodsNeeded.Scenario plan,
      List<String> policies,
      List<Long> seeds,
      List<PodsNeeded.Outcome> outcomes,
      List<Row> rows) {
    String name = plan.scenario().name();
    if (!latency(name, policies.get(0), outcomes).complete()) {
      return;
    }
    sb.append(
        format(
            "%np99 TTFT on the scenario's own fleet (%d pods) at this rate, ms:%n%n",
            plan.scaling().basePods()));
    sb.append("| policy | per seed | mean [95% CI] | 2× window: per seed |\n|---|---|---|---|\n");
    for (String policy : policies) {
      Latency l = latency(name, policy, outcomes);
      sb.append("| ").append(policy).append(" | ").append(ms(l.p99Ms()));
      double h = Stats.halfWidth95(l.p99Ms());
      sb.append(" | ")
          .append(
              Double.isNaN(h)
                  ? format("%,.0f", Stats.mean(l.p99Ms()))
                  : format("%,.0f [%,.0f, %,.0f]", Stats.mean(l.p99Ms()), l.low(), l.high()));
      sb.append(" | ").append(ms(l.doubledP99Ms())).append(" |\n");
    }
    Row best = bestBaseline(rows);
    if (best == null || !policies.contains("pointsman")) {
      return;
    }
    sb.append('\n')
        .append(
            latencyVerdict(
                latency(name, "pointsman", outcomes),
                latency(name, best.policy(), outcomes),
                plan.scenario().slo().kneeP99TtftMs(),
                seeds));
  }

  /** The scenario's throughput floor, as a line of the list above its table. */
  static String floorLine(PodsNeeded.Scenario plan) {
    PodsNeeded.Floor f = plan.floor();
    if (f.pods() < 0) {
      return format(
          "- Throughput floor: beyond %d pods (%.1f req/s there, below the rate)\n",
          plan.maxPods(), f.capacity());
    }
    String below =
        f.capacityBelow() > 0
            ? format("; %s: %.1f req/s", pods(f.pods() - 1), f.capacityBelow())
            : "";
    String meaning =
        f.bound()
            ? "no policy can keep up with this rate on fewer pods (plain traffic: a pod's"
                + " throughput does not depend on the routing)"
            : "a reference, not a bound: with shared prefixes or adapters a router that"
                + " concentrates them makes a pod faster than it is alone on the mixed stream";
    return format(
        "- Throughput floor: %s (capacity %.1f req/s%s; each pod's saturation throughput"
            + " measured alone on this traffic, summed) — %s\n",
        pods(f.pods()), f.capacity(), below, meaning);
  }

  private static String pods(int n) {
    return n == 1 ? "1 pod" : n + " pods";
  }

  /**
   * Pointsman's p99 on the own fleet against the best baseline's, as the report states it: not read
   * at all where the best baseline misses the SLO there on some seed (then this rate is past its
   * knee, and a reduction would measure an overload's length, not the product); rejected where
   * doubling the window moves the figure stated, the ratio of the two means, by more than {@link
   * #MOVED_P99}; lower or higher only where the 95% intervals separate in both windows. Seeds whose
   * own p99 moved more than that are listed beside the verdict: a p99 of a few hundred milliseconds
   * over a few thousand requests moves with whether one straggler episode falls in the window, and
   * the seeds' interval already carries that spread.
   */
  static String latencyVerdict(Latency product, Latency baseline, double sloMs, List<Long> seeds) {
    double ratio = Stats.mean(product.p99Ms()) / Stats.mean(baseline.p99Ms());
    double doubledRatio = Stats.mean(product.doubledP99Ms()) / Stats.mean(baseline.doubledP99Ms());
    String head =
        format(
            "p99 TTFT at the best baseline's knee, pointsman against %s: %,.0f against %,.0f ms"
                + " (ratio %.2f; doubled window %,.0f against %,.0f ms, ratio %.2f): ",
            baseline.policy(),
            Stats.mean(product.p99Ms()),
            Stats.mean(baseline.p99Ms()),
            ratio,
            Stats.mean(product.doubledP99Ms()),
            Stats.mean(baseline.doubledP99Ms()),
            doubledRatio);
    for (double p99 : baseline.p99Ms()) {
      if (!(p99 <= sloMs)) {
        return head
            + format(
                "**not read**: %s misses the %,.0f ms SLO on its own fleet at this rate on some"
                    + " seed, so the rate is past its knee.%n",
                baseline.policy(), sloMs);
      }
    }
    List<String> moved = new ArrayList<>(product.movedSeeds(seeds));
    moved.addAll(baseline.movedSeeds(seeds));
    String seedsMoved =
        moved.isEmpty()
            ? ""
            : " Seeds whose own p99 moved by more than "
                + Math.round(MOVED_P99 * 100)
                + "% at twice the window: "
                + String.join(", ", moved)
                + ".";
    if (!(Math.abs(doubledRatio - ratio) <= MOVED_P99 * ratio)) {
      return head
          + "**rejected**: doubling the measured window moved the ratio by more than "
          + Math.round(MOVED_P99 * 100)
          + "%."
          + seedsMoved
          + "\n";
    }
    String verdict =
        product.high() < baseline.low() && product.doubledHigh() < baseline.doubledLow()
            ? "lower"
            : baseline.high() < product.low() && baseline.doubledHigh() < product.doubledLow()
                ? "higher"
                : "no separation";
    return head
        + "**"
        + verdict
        + "** (the ratio within "
        + Math.round(MOVED_P99 * 100)
        + "% at twice the window; 95% intervals, both windows)."
        + seedsMoved
        + "\n";
  }

  private static String ms(double[] values) {
    List<String> out = new ArrayList<>();
    for (double v : values) {
      out.add(Double.isNaN(v) ? "–" : format("%,.0f", v));
    }
    return String.join(", ", out);
  }

  /**
   * What each policy's fleet does to decoding: on each seed's smallest passing fleet, in the
   * scenario's window, the median and p99 time per output token and the goodput (both objectives
   * met) as a share of the rate. The SLO sizes fleets on time to first token only; this shows
   * whether a smaller fleet pays for it in decoding.
   */
  private static void decodingAtPods(
      StringBuilder sb, Scenario s, List<String> policies, List<PodsNeeded.Outcome> outcomes) {
    StringBuilder rows = new StringBuilder();
    for (String policy : policies) {
      List<Double> p50 = new ArrayList<>();
      List<Double> p99 = new ArrayList<>();
      List<Double> good = new ArrayList<>();
      for (PodsNeeded.Outcome o : outcomes) {
        if (o.scenario().equals(s.name()) && o.policy().equals(policy)) {
          PodsNeeded.Verdict v = o.atPods();
          p50.add(v == null ? Double.NaN : v.tpotP50Ms());
          p99.add(v == null ? Double.NaN : v.tpotP99Ms());
          good.add(v == null ? Double.NaN : v.goodShare());
        }
      }
      if (p50.stream().allMatch(d -> Double.isNaN(d))) {
        continue;
      }
      rows.append("| ").append(policy);
      rows.append(" | ").append(decimals(p50, "%.1f"));
      rows.append(" | ").append(decimals(p99, "%.1f"));
      rows.append(" | ").append(decimals(good, "%.1f%%", 100)).append(" |\n");
    }
    if (rows.isEmpty()) {
      return;
    }
    sb.append(
        format(
            "%nDecoding on the fleet each policy needs (each seed's smallest passing fleet, the"
                + " scenario's window): time per output token, ms, and goodput (TTFT ≤ %.0f ms and"
                + " TPOT ≤ %.0f ms) as a share of the rate, per seed:%n%n",
            s.slo().ttftMs(), s.slo().tpotMs()));
    sb.append("| policy | TPOT p50 | TPOT p99 | goodput |\n|---|---|---|---|\n").append(rows);
  }

  private static String decimals(List<Double> values, String f) {
    return decimals(values, f, 1);
  }

  private static String decimals(List<Double> values, String f, double scale) {
    List<String> out = new ArrayList<>();
    for (double v : values) {
      out.add(Double.isNaN(v) ? "–" : format(f, v * scale));
    }
    return String.join(", ", out);
  }

  /** Why the largest fleet that failed failed, per policy and seed, where even the largest did. */
  private static void failures(
      StringBuilder sb, String scenario, List<PodsNeeded.Outcome> outcomes) {
    List<String> lines = new ArrayList<>();
    for (PodsNeeded.Outcome o : outcomes) {
      if (o.scenario().equals(scenario) && o.pods().isEmpty() && o.failure() != null) {
        lines.add(
            format(
                "%s seed %d at %d pods: p99 TTFT %,.0f ms, %.1f%% served",
                o.policy(),
                o.seed(),
                o.largestFailed(),
                o.failure().p99Ms(),
                o.failure().served() * 100));
      }
    }
    if (!lines.isEmpty()) {
      sb.append("\nWhere even the largest fleet failed: ").append(String.join("; ", lines));
      sb.append(".\n");
    }
  }

  /**
   * Pointsman against the best baseline, or a note when either is missing. The best baseline is the
   * one with the lowest median over seeds (a seed that failed the largest fleet counts as more than
   * it), then the lowest mean: a baseline that failed one seed of three is still ranked by the
   * other two rather than tied with every baseline at "unbounded".
   */
  static String verdicts(List<Row> rows) {
    Row product = null;
    for (Row r : rows) {
      if (r.policy().equals("pointsman")) {
        product = r;
      }
    }
    Row best = bestBaseline(rows);
    if (product == null || best == null) {
      return "No pointsman-against-baseline verdict: pointsman or every baseline is missing.\n";
    }
    if (product.moved() || best.moved()) {
      return "pointsman against the best baseline ("
          + best.policy()
          + "): **rejected**: doubling the measured window moved "
          + (product.moved() ? "pointsman" : best.policy())
          + "'s figure by more than "
          + Math.round(PodsNeeded.MOVED_SHARE * 100)
          + "% on some seed, so this rate is not one where the figure is read.\n";
    }
    return "pointsman against the best baseline ("
        + best.policy()
        + "): **"
        + verdict(product, best)
        + "** (a win or a loss is claimed only where the 95% intervals separate).\n";
  }

  /** The baseline needing fewest pods ({@link #better}), or null when there is none. */
  static Row bestBaseline(List<Row> rows) {
    Row best = null;
    for (Row r : rows) {
      if (isBaseline(r.policy()) && (best == null || better(r, best))) {
        best = r;
      }
    }
    return best;
  }

  /** Whether baseline {@code a} ranks before {@code b}: lower median pods, then lower mean. */
  static boolean better(Row a, Row b) {
    double ma = median(a);
    double mb = median(b);
    return ma != mb ? ma < mb : a.mean() < b.mean();
  }

  private static double median(Row r) {
    double[] v = new double[r.pods().length];
    for (int i = 0; i < v.length; i++) {
      v[i] = r.pods()[i] < 0 ? Double.POSITIVE_INFINITY : r.pods()[i];
    }
    java.util.Arrays.sort(v);
    if (v.length == 0) {
      return Double.POSITIVE_INFINITY;
    }
    int m = v.length / 2;
    return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
  }

  static Row row(
      PodsNeeded.Scenario plan,
      String policy,
      List<PodsNeeded.Outcome> outcomes,
      GpuPrices prices) {
    List<Integer> pods = new ArrayList<>();
    List<Double> costs = new ArrayList<>();
    boolean moved = false;
    for (PodsNeeded.Outcome o : outcomes) {
      if (o.scenario().equals(plan.scenario().name()) && o.policy().equals(policy)) {
        moved |= o.moved();
        int n = o.pods().orElse(-1);
        pods.add(n);
        costs.add(n < 0 ? Double.NaN : prices.fleetPerHour(plan.scaling().fleet(n)));
      }
    }
    return new Row(
        policy,
        pods.stream().mapToInt(Integer::intValue).toArray(),
        costs.stream().mapToDouble(Double::doubleValue).toArray(),
        plan.maxPods(),
        moved);
  }

  /**
   * Per seed, the pods that pass with the measured window doubled: "> n" where none up to 10% above
   * the figure n did (the figure is moved), "–" where there was no figure to check.
   */
  private static String doubled(String scenario, String policy, List<PodsNeeded.Outcome> outcomes) {
    List<String> out = new ArrayList<>();
    for (PodsNeeded.Outcome o : outcomes) {
      if (o.scenario().equals(scenario) && o.policy().equals(policy)) {
        if (o.pods().isEmpty()) {
          out.add("–");
        } else if (o.moved()) {
          out.add("> " + PodsNeeded.stillStanding(o.pods().getAsInt()) + " (moved)");
        } else {
          out.add(Integer.toString(o.doubledPods()));
        }
      }
    }
    return String.join(", ", out);
  }

  private static String perSeed(int[] pods, int maxPods) {
    List<String> out = new ArrayList<>();
    for (int p : pods) {
      out.add(p < 0 ? "> " + maxPods : Integer.toString(p));
    }
    return String.join(", ", out);
  }

  private static String interval(Row row, int maxPods) {
    if (!row.complete()) {
      return "– (some seed needs > " + maxPods + ")";
    }
    double h = row.halfWidth();
    return Double.isNaN(h)
        ? format("%.1f", row.mean())
        : format("%.1f [%.1f, %.1f]", row.mean(), row.low(), row.high());
  }

  private static String max(int[] pods, int maxPods) {
    int m = 0;
    for (int p : pods) {
      if (p < 0) {
        return "> " + maxPods;
      }
      m = Math.max(m, p);
    }
    return Integer.toString(m);
  }

  private static String costInterval(Row row) {
    if (!row.complete()) {
      return "–";
    }
    double m = Stats.mean(row.costs());
    double h = Stats.halfWidth95(row.costs());
    return Double.isNaN(h) ? money(m) : money(m) + " [" + money(m - h) + ", " + money(m + h) + "]";
  }

  private static String maxCost(Row row, PodsNeeded.Scenario plan, GpuPrices prices) {
    if (!row.complete()) {
      return "–";
    }
    int m = 0;
    for (int p : row.pods()) {
      m = Math.max(m, p);
    }
    return money(prices.fleetPerHour(plan.scaling().fleet(m)));
  }

  static String fleet(FleetScaling scaling, int n) {
    StringBuilder sb = new StringBuilder();
    int[] counts = scaling.counts(n);
    for (int g = 0; g < counts.length; g++) {
      sb.append(g == 0 ? "" : " + ").append(counts[g]).append("×");
      sb.append(scaling.base().get(g).gpu());
    }
    return sb.toString();
  }

  private static double[] asDoubles(int[] values) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i];
    }
    return out;
  }

  /** A rate as stated, to the hundredth (a trace's may be a fraction of a request a second). */
  static String rate(double reqPerS) {
    BigDecimal d = BigDecimal.valueOf(Math.round(reqPerS * 100) / 100.0).stripTrailingZeros();
    return (d.scale() < 1 ? d.setScale(1) : d).toPlainString();
  }

  private static String money(double v) {
    return format("$%,.2f", v);
  }

  private static String format(String f, Object... args) {
    return String.format(Locale.ROOT, f, args);
  }
}
