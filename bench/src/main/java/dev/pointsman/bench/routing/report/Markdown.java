package dev.pointsman.bench.routing.report;

import dev.pointsman.bench.routing.run.Fleets;
import dev.pointsman.bench.routing.run.FlowClasses;
import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.ScrapeSpec;
import dev.pointsman.bench.routing.scenario.WorkloadPart;
import dev.pointsman.sim.engine.Imperfections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The Markdown report: per scenario, its setup, knees, the whole ladder and the headline load. */
public final class Markdown {
  private Markdown() {}

  /**
   * The report of {@code results}; {@code chartPrefix} maps a scenario to the folder of its charts,
   * relative to the report.
   */
  public static String report(
      List<ScenarioResult> results, Map<String, List<String>> charts, String command) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Routing benchmark report\n\n");
    if (command != null) {
      sb.append("Command: `").append(command).append("`\n\n");
    }
    for (ScenarioResult r : results) {
      scenario(sb, r, charts.getOrDefault(r.scenario(), List.of()), "###");
    }
    return sb.toString();
  }

  /** Which set the scenario is in, train or test, as the report states it. */
  static String set(Scenario s) {
    return s.split().equals(Scenario.TRAIN)
        ? "train (the declared training set: defaults may be tuned on it)"
        : "test (held out: checks claims, never tunes)";
  }

  /** One scenario's section, headed at {@code level}. */
  public static void scenario(
      StringBuilder sb, ScenarioResult r, List<String> charts, String level) {
    Scenario s = r.definition();
    sb.append(level).append(' ').append(r.scenario()).append("\n\n");
    if (!r.description().isEmpty()) {
      sb.append(r.description()).append("\n\n");
    }
    sb.append("- Set: ").append(set(s)).append('\n');
    sb.append("- Fleet: ").append(fleet(s)).append("; capacity ");
    sb.append(fmt(r.fleetCapacityReqPerS(), 1)).append(" req/s (per pod: ");
    r.capacityPerProfile()
        .forEach((k, v) -> sb.append(k).append(' ').append(fmt(v, 2)).append(", "));
    sb.setLength(sb.length() - 2);
    sb.append(")\n");
    if (s.trace() == null) {
      sb.append("- Workload: ").append(workload(s)).append("\n");
      sb.append("- Arrivals: ").append(s.arrival().describe()).append("\n");
    } else {
      sb.append("- Workload: ").append(WorkloadNotes.trace(r)).append("\n");
    }
    sb.append("- Context: ").append(WorkloadNotes.context(r)).append("\n");
    sb.append(
        String.format(
            Locale.ROOT,
            "- Run: %.0f s simulated per point%s, first %.0f s warm-up (not measured); seeds %s;"
                + " scrape every %.0f ms"
                + " (phase jitter %.0f ms); SLO TTFT ≤ %.0f ms & TPOT ≤ %.0f ms (goodput), knee at"
                + " p99 TTFT ≤ %.0f ms\n\n",
            s.durationSeconds(),
            s.headlineDurationSeconds() == null
                ? ""
                : String.format(
                    Locale.ROOT,
                    " (%.0f s at the headline load %s)",
                    s.headlineDurationSeconds(),
                    pct(s.headline())),
            s.warmupSeconds(),
            s.seeds(),
            s.scrape().intervalMs(),
            s.scrape().jitterMs(),
            s.slo().ttftMs(),
            s.slo().tpotMs(),
            s.slo().kneeP99TtftMs()));
    sb.setLength(sb.length() - 1);
    sb.append("- World: ").append(world(s)).append("\n\n");
    double h = r.headlineLoad();
    sb.append("| policy | knee (load) | gap captured");
    sb.append(r.gapLoad() == null ? "" : " @" + pct(r.gapLoad()));
    sb.append(" | mean TTFT @").append(pct(h)).append(" | p99 TTFT @").append(pct(h));
    sb.append(" | goodput @").append(pct(h)).append(" |\n|---|---|---|---|---|---|\n");
    for (String p : r.policies()) {
      List<RunResult> at = r.at(p, h);
      Double gap = r.lookaheadGapCaptured().get(p);
      double top = r.loads().isEmpty() ? Double.NaN : r.loads().get(r.loads().size() - 1);
      Double knee = r.knee().get(p);
      boolean atTop = knee != null && Math.abs(knee - top) < 1e-9;
      sb.append("| ").append(p).append(" | ").append(atTop ? "≥ " : "").append(pct(knee));
      sb.append(" | ").append(gap == null ? "–" : pct(gap));
      sb.append(" | ").append(cell(at, x -> x.ttftMs().mean(), true));
      sb.append(" | ").append(cell(at, x -> x.ttftMs().p99(), true));
      sb.append(" | ").append(cell(at, RunResult::goodputReqPerS, false));
      sb.append(" |\n");
    }
    sb.append('\n');
    if (s.seeds().size() >= MIN_SEEDS_FOR_INTERVAL) {
      sb.append("Each figure: mean ± half-width of the 95% t-interval over the ")
          .append(s.seeds().size())
          .append(" seeds.\n\n");
    }
    ladder(sb, r, "p99 TTFT (ms)", x -> x.ttftMs().p99(), true);
    ladder(sb, r, "mean TTFT (ms)", x -> x.ttftMs().mean(), true);
    ladder(sb, r, "goodput (req/s)", RunResult::goodputReqPerS, false);
    if (s.fleet().stream().anyMatch(g -> g.kvOffloadGiB() > 0)) {
      ladder(
          sb,
          r,
          "prompt tokens the pods loaded from their CPU tiers (%, of those looked up)",
          x -> 100 * x.offloadHitRate(),
          false);
    }
    classes(sb, r);
    headline(sb, r);
    for (String c : charts) {
      sb.append("![").append(c).append("](").append(c).append(")\n");
    }
    sb.append('\n');
  }

  /**
   * TTFT by class of traffic (tenant and priority) at the headline load, when the scenario declares
   * classes: per policy and class, p99 TTFT, the share within the TTFT SLO and the shed.
   */
  static void classes(StringBuilder sb, ScenarioResult r) {
    double h = r.headlineLoad();
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (RunResult run : r.runs()) {
      if (Math.abs(run.load() - h) < 1e-9) {
        run.classes().forEach(c -> names.add(c.name()));
      }
    }
    if (names.isEmpty()) {
      return;
    }
    sb.append("TTFT by class of traffic @").append(pct(h));
    sb.append(" (p99 ms; share within the TTFT SLO; shed of the class's requests):\n\n");
    sb.append("| policy | class | p99 TTFT | within SLO | shed |\n|---|---|---|---|---|\n");
    for (String p : r.policies()) {
      List<RunResult> at = r.at(p, h);
      for (String name : names) {
        List<FlowClasses> of = new java.util.ArrayList<>();
        for (RunResult run : at) {
          run.classes().stream().filter(c -> c.name().equals(name)).forEach(of::add);
        }
        if (of.isEmpty()) {
          continue;
        }
        double p99 = of.stream().mapToDouble(FlowClasses::p99TtftMs).average().orElse(Double.NaN);
        double within = of.stream().mapToDouble(FlowClasses::withinSlo).average().orElse(0);
        int shed = of.stream().mapToInt(FlowClasses::shed).sum();
        int requests = of.stream().mapToInt(FlowClasses::requests).sum();
        sb.append("| ").append(p).append(" | ").append(name);
        sb.append(" | ").append(ms(p99)).append(" | ").append(pct(within));
        sb.append(" | ").append(shed).append(" of ").append(requests).append(" |\n");
      }
    }
    sb.append("\nMeans over the seeds (shed: summed).\n\n");
  }

  private static void ladder(
      StringBuilder sb,
      ScenarioResult r,
      String title,
      ToDoubleFunction<RunResult> f,
      boolean millis) {
    List<Double> loads = r.loads();
    sb.append("Whole ladder, ").append(title).append(":\n\n| policy |");
    for (double l : loads) {
      sb.append(' ').append(pct(l)).append(" |");
    }
    sb.append("\n|---|").append("---|".repeat(loads.size())).append('\n');
    for (String p : r.policies()) {
      sb.append("| ").append(p).append(" |");
      for (double l : loads) {
        sb.append(' ').append(cell(r.at(p, l), f, millis)).append(" |");
      }
      sb.append('\n');
    }
    sb.append('\n');
  }

  private static void headline(StringBuilder sb, ScenarioResult r) {
    double h = r.headlineLoad();
    sb.append("At ").append(pct(h)).append(" load (first seed):\n\n");
    sb.append(
        "| policy | done | failed | shed | TTFT mean | p50 | p90 | p99 | TPOT p50 | TPOT p99 |"
            + " E2E p50 | E2E p99 | tok/s | goodput | prefix hit | preempt | LoRA loads |"
            + " imbalance CV | predictor MAPE | TPOT predictor MAPE |\n");
    sb.append("|---".repeat(20)).append("|\n");
    for (String p : r.policies()) {
      List<RunResult> at = r.at(p, h);
      if (at.isEmpty()) {
        continue;
      }
      RunResult x = at.get(0);
      sb.append("| ").append(p);
      sb.append(" | ").append(x.completed()).append(" | ").append(x.failed());
      sb.append(" | ").append(x.shed());
      sb.append(" | ").append(ms(x.ttftMs().mean())).append(" | ").append(ms(x.ttftMs().p50()));
      sb.append(" | ").append(ms(x.ttftMs().p90())).append(" | ").append(ms(x.ttftMs().p99()));
      sb.append(" | ").append(fmt(x.tpotMs().p50(), 1)).append(" | ");
      sb.append(fmt(x.tpotMs().p99(), 1));
      sb.append(" | ").append(ms(x.e2eMs().p50())).append(" | ").append(ms(x.e2eMs().p99()));
      sb.append(" | ").append(fmt(x.throughputTokPerS(), 0));
      sb.append(" | ").append(fmt(x.goodputReqPerS(), 2));
      sb.append(" | ").append(pct(x.prefixHitRate()));
      sb.append(" | ").append(x.preemptions()).append(" | ").append(x.loraLoads());
      sb.append(" | ").append(fmt(x.imbalanceCv(), 2));
      sb.append(" | ").append(x.predictorMape() == null ? "–" : pct(x.predictorMape()));
      sb.append(" | ").append(x.tpotPredictorMape() == null ? "–" : pct(x.tpotPredictorMape()));
      sb.append(" |\n");
    }
    sb.append('\n');
  }

  /** Seeds from which a table cell shows its 95% interval, not the mean alone. */
  static final int MIN_SEEDS_FOR_INTERVAL = 3;

  /**
   * One table cell over seeds: the mean, and with {@link #MIN_SEEDS_FOR_INTERVAL} or more seeds "±
   * the half-width of its 95% t-interval".
   */
  static String cell(List<RunResult> runs, ToDoubleFunction<RunResult> f, boolean millis) {
    double mean = ScenarioResult.mean(runs, f);
    String m = millis ? ms(mean) : fmt(mean, 2);
    if (runs.size() < MIN_SEEDS_FOR_INTERVAL || Double.isNaN(mean)) {
      return m;
    }
    double[] values = runs.stream().mapToDouble(f).toArray();
    double h = dev.pointsman.bench.routing.run.Stats.halfWidth95(values);
    return m + " ± " + (millis ? ms(h) : fmt(h, 2));
  }

  static String fleet(Scenario s) {
    StringBuilder sb = new StringBuilder();
    for (PodGroup g : s.fleet()) {
      sb.append(sb.isEmpty() ? "" : " + ").append(g.count()).append("×").append(Fleets.label(g));
    }
    return sb.toString();
  }

  static String workload(Scenario s) {
    double total = 0;
    for (WorkloadPart p : s.workload()) {
      total += p.weight();
    }
    StringBuilder sb = new StringBuilder();
    for (WorkloadPart p : s.workload()) {
      sb.append(sb.isEmpty() ? "" : ", ").append(pct(p.weight() / total)).append(' ');
      sb.append(p.kind());
      switch (p.kind()) {
        case "shared-prefix" ->
            sb.append(
                String.format(
                    " (%d groups, %d-token system prompt, %d-token question, %d-token answer)",
                    p.groups(), p.systemTokens(), p.questionTokens(), p.outputTokens()));
        case "multi-turn" ->
            sb.append(
                String.format(
                    " (%d–%d turns, %d-token system prompt, think %.0f s, context ≤ %d)",
                    p.minTurns(),
                    p.maxTurns(),
                    p.systemTokens(),
                    p.thinkSeconds(),
                    p.maxContextTokens()));
        case "rag" ->
            sb.append(
                String.format(
                    Locale.ROOT,
                    " (%d documents of %d tokens, Zipf %.1f)",
                    p.documents(),
                    p.documentTokens(),
                    p.zipf()));
        default -> {}
      }
    }
    if (s.lora() != null) {
      sb.append("; ").append(pct(s.lora().fraction())).append(" of requests on ");
      sb.append(s.lora().adapters()).append(" LoRA adapters");
      if (s.lora().weights() != null) {
        sb.append(" (weights ").append(s.lora().weights()).append(')');
      } else if (s.lora().zipf() > 0) {
        sb.append(" (Zipf ").append(s.lora().zipf()).append(')');
      }
      if (s.lora().replicas() != null) {
        sb.append(", each registered on ").append(s.lora().replicas()).append(" pods");
      }
    }
    return sb.toString();
  }

  static String pct(Double v) {
    if (v == null || Double.isNaN(v)) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.0f%%", v * 100);
  }

  static String ms(double v) {
    if (Double.isNaN(v)) {
      return "–";
    }
    return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : fmt(v, 1);
  }

  static String fmt(double v, int decimals) {
    if (Double.isNaN(v)) {
      return "–";
    }
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /** The scenario's world in one line (docs/benchmarks.md, "The benchmark's world"). */
  static String world(Scenario s) {
    Imperfections w = s.world();
    ScrapeSpec sc = s.scrape();
    String pods =
        w.isClean()
            ? "clean pods"
            : String.format(
                Locale.ROOT,
                "step noise σ %s; stragglers %s per pod-hour, %s–%s× for %.0f s; restarts %s per"
                    + " pod-hour, %.0f s down",
                num(w.stepNoiseSigma()),
                num(w.stragglersPerPodHour()),
                num(w.stragglerMinSlowdown()),
                num(w.stragglerMaxSlowdown()),
                w.stragglerSeconds(),
                num(w.restartsPerPodHour()),
                w.restartSeconds());
    String scrapes =
        sc.isClean()
            ? "scrapes applied at their tick, never failing"
            : String.format(
                Locale.ROOT,
                "scrape lag median %s ms (σ %s), %s%% failing, %.0f ms timeout",
                num(sc.lagMedianMs()),
                num(sc.lagSigma()),
                num(sc.failureRate() * 100),
                sc.timeoutMs());
    return pods + "; " + scrapes;
  }

  /** {@code v} without trailing zeros. */
  private static String num(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
