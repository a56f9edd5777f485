package dev.pointsman.bench.routing.report;

import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.trace.Trace;
import dev.pointsman.bench.routing.trace.TraceFiles;
import dev.pointsman.bench.routing.workload.ServedContext;
import dev.pointsman.bench.routing.workload.TraceStream;
import java.util.List;
import java.util.Locale;

/** The report lines on a scenario's trace replay and on the requests cut to the context length. */
final class WorkloadNotes {
  private WorkloadNotes() {}

  /** The workload of a trace scenario: the file, its size and rate, and each load's speed-up. */
  static String trace(ScenarioResult r) {
    Scenario s = r.definition();
    Trace t = TraceFiles.load(s.trace());
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "trace `%s` (%s, %,d requests over %.0f s, mean %.2f req/s), replayed from its"
                + " timestamps rescaled to the load; the first seed's window at each load:",
            t.source(),
            t.format(),
            t.size(),
            t.spanMs() / 1000,
            t.meanRatePerSecond()));
    long seed = s.seeds().get(0);
    for (double load : r.loads()) {
      double durationMs = s.forLoad(load).durationSeconds() * 1000;
      TraceStream.Window w =
          TraceStream.window(
              t, load * r.fleetCapacityReqPerS(), durationMs, seed, Integer.MAX_VALUE);
      sb.append(
          String.format(
              Locale.ROOT,
              " %s rows %,d–%,d at ×%.2f%s;",
              Markdown.pct(load),
              w.startRow(),
              w.startRow() + w.rows() - 1,
              w.speedup(),
              w.laps() > 0 ? " (wraps " + w.laps() + "×)" : ""));
    }
    sb.setLength(sb.length() - 1);
    return sb.toString();
  }

  /** The context line: its length and, per load, the measured requests cut to fit it. */
  static String context(ScenarioResult r) {
    Scenario s = r.definition();
    StringBuilder sb = new StringBuilder();
    int tokens = ServedContext.tokens(s);
    sb.append(String.format(Locale.ROOT, "%,d tokens", tokens));
    if (s.contextTokens() != null) {
      sb.append(" (set by the scenario)");
    } else if (tokens < ServedContext.MODEL_CONTEXT_TOKENS) {
      sb.append(" (what the smallest pod's KV cache holds; the model's is 131,072)");
    } else {
      sb.append(" (the model's)");
    }
    sb.append("; measured requests cut to fit it (first seed):");
    String policy = r.policies().isEmpty() ? null : r.policies().get(0);
    for (double load : r.loads()) {
      List<RunResult> at = r.at(policy, load);
      if (at.isEmpty()) {
        continue;
      }
      RunResult x = at.get(0);
      sb.append(
          String.format(
              Locale.ROOT,
              " %s %d of %d (%.1f%%),",
              Markdown.pct(load),
              x.cut(),
              x.measured(),
              x.measured() == 0 ? 0.0 : 100.0 * x.cut() / x.measured()));
    }
    sb.setLength(sb.length() - 1);
    return sb.toString();
  }
}
