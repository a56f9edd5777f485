package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.Stats;
import dev.pointsman.bench.routing.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The knee-latency suite's summary in Markdown ({@link KneeLatencySuite}). */
final class KneeLatencyReport {
  private KneeLatencyReport() {}

  /** One policy's knee on a scenario. */
  record PolicyKnee(String policy, KneeSearch.Knee knee) {}

  /**
   * One scenario's results.
   *
   * @param pods the scenario's own fleet size
   * @param start the rate the searches started from
   * @param best the best baseline (null when no baseline passed anywhere)
   * @param latencies every policy's p99 at the best baseline's knee (empty without one)
   */
  record Section(
      Scenario scenario,
      int pods,
      double start,
      List<PolicyKnee> knees,
      PolicyKnee best,
      List<PodsNeededReport.Latency> latencies) {}

  /**
   * The best baseline: the baseline ({@link PodsNeededReport#isBaseline}) with the highest passing
   * knee (the first listed among equals); null when none passed at any rate tried.
   */
  static PolicyKnee best(List<PolicyKnee> knees) {
    PolicyKnee best = null;
    for (PolicyKnee k : knees) {
      if (!PodsNeededReport.isBaseline(k.policy()) || Double.isNaN(k.knee().passing())) {
        continue;
      }
      if (best == null || k.knee().passing() > best.knee().passing()) {
        best = k;
      }
    }
    return best;
  }

  static String markdown(List<Section> sections, List<Long> seeds, boolean quick) {
    StringBuilder sb = new StringBuilder("# p99 TTFT at the best baseline's knee\n\n");
    sb.append(
            "Per scenario, on its own fleet: each policy's knee, the highest request rate at which"
                + " it meets the SLO (p99 TTFT within the knee SLO, at least 99.9% served) on every"
                + " seed, both in the scenario's measured window and with that window doubled;"
                + " found from the scenario's stated rate by steps of 25% up or down, then"
                + " bisection to within 3%. The best baseline is the listed policy other than"
                + " pointsman with the highest knee. At its knee every policy's p99 per seed, mean"
                + " and 95% t-interval (seeds ")
        .append(seeds)
        .append(
            "); a comparison is rejected where doubling the window moves its ratio (pointsman's"
                + " mean p99 over the baseline's) by more than 10%, and lower or higher is claimed"
                + " only where the intervals separate in both windows; seeds whose own p99 moved"
                + " more are listed.")
        .append(quick ? " **--quick**: short runs." : "")
        .append("\n");
    for (Section s : sections) {
      section(sb, s, seeds);
    }
    return sb.toString();
  }

  private static void section(StringBuilder sb, Section s, List<Long> seeds) {
    Scenario sc = s.scenario();
    sb.append("\n## ").append(sc.name()).append(" (").append(sc.split()).append(")\n\n");
    sb.append(
        format(
            "- Own fleet: %d pods; SLO: p99 TTFT ≤ %.0f ms, ≥ 99.9%% served; %.0f s per run"
                + " (first %.0f s warm-up), and twice that window; searches from %s req/s\n\n",
            s.pods(),
            sc.slo().kneeP99TtftMs(),
            sc.durationSeconds(),
            sc.warmupSeconds(),
            rate(s.start())));
    sb.append("| policy | knee, req/s | first failing rate | rates run |\n|---|---|---|---|\n");
    for (PolicyKnee k : s.knees()) {
      sb.append("| ")
          .append(k.policy())
          .append(" | ")
          .append(passing(k.knee()))
          .append(" | ")
          .append(failing(k.knee()))
          .append(" | ")
          .append(k.knee().runs())
          .append(" |\n");
    }
    if (s.best() == null) {
      sb.append("\nNo baseline met the SLO at any rate tried: nothing to compare at.\n");
      return;
    }
    double atKnee = s.best().knee().passing();
    sb.append(
        format(
            "%np99 TTFT at %s's knee (%s req/s), ms:%n%n| policy | per seed | mean [95%% CI] |"
                + " 2× window: per seed |%n|---|---|---|---|%n",
            s.best().policy(), rate(atKnee)));
    PodsNeededReport.Latency product = null;
    PodsNeededReport.Latency baseline = null;
    for (PodsNeededReport.Latency l : s.latencies()) {
      sb.append("| ")
          .append(l.policy())
          .append(" | ")
          .append(ms(l.p99Ms()))
          .append(" | ")
          .append(meanInterval(l))
          .append(" | ")
          .append(ms(l.doubledP99Ms()))
          .append(" |\n");
      if (l.policy().equals("pointsman")) {
        product = l;
      }
      if (l.policy().equals(s.best().policy())) {
        baseline = l;
      }
    }
    if (product == null) {
      return;
    }
    sb.append('\n')
        .append(
            PodsNeededReport.latencyVerdict(product, baseline, sc.slo().kneeP99TtftMs(), seeds));
    for (PolicyKnee k : s.knees()) {
      if (k.policy().equals("pointsman") && !Double.isNaN(k.knee().passing())) {
        sb.append(
            format(
                "%nKnee rate, pointsman against %s: %s against %s req/s (ratio %s).%n",
                s.best().policy(),
                passing(k.knee()),
                rate(atKnee),
                k.knee().bracketed()
                    ? format("%.2f", k.knee().passing() / atKnee)
                    : format("≥ %.2f", k.knee().passing() / atKnee)));
      }
    }
  }

  private static String passing(KneeSearch.Knee k) {
    if (Double.isNaN(k.passing())) {
      return "< " + rate(k.failing()) + " (none tried passed)";
    }
    return Double.isNaN(k.failing())
        ? "≥ " + rate(k.passing()) + " (highest tried)"
        : rate(k.passing());
  }

  private static String failing(KneeSearch.Knee k) {
    return Double.isNaN(k.failing()) ? "–" : rate(k.failing());
  }

  /**
   * A rate as the tables print it: to a tenth of a request a second, or to a hundredth below one (a
   * trace's knee can be a fraction of a request a second).
   */
  static String rate(double reqPerS) {
    return format(reqPerS < 1 ? "%.2f" : "%.1f", reqPerS);
  }

  private static String meanInterval(PodsNeededReport.Latency l) {
    double h = Stats.halfWidth95(l.p99Ms());
    double m = Stats.mean(l.p99Ms());
    return Double.isNaN(h) ? format("%,.0f", m) : format("%,.0f [%,.0f, %,.0f]", m, m - h, m + h);
  }

  private static String ms(double[] values) {
    List<String> out = new ArrayList<>();
    for (double v : values) {
      out.add(Double.isNaN(v) ? "–" : format("%,.0f", v));
    }
    return String.join(", ", out);
  }

  private static String format(String f, Object... args) {
    return String.format(Locale.ROOT, f, args);
  }
}
