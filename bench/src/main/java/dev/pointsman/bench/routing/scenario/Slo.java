package dev.pointsman.bench.routing.scenario;

/**
 * Service levels. Goodput counts requests with TTFT ≤ {@code ttftMs} and TPOT ≤ {@code tpotMs}; the
 * knee is the highest load with p99 TTFT ≤ {@code kneeP99TtftMs}.
 */
public record Slo(Double ttftMs, Double tpotMs, Double kneeP99TtftMs) {
  public Slo {
    ttftMs = Check.positive("ttftMs", ttftMs, 1000.0);
    tpotMs = Check.positive("tpotMs", tpotMs, 50.0);
    kneeP99TtftMs = Check.positive("kneeP99TtftMs", kneeP99TtftMs, 2000.0);
  }

  public static Slo defaults() {
    return new Slo(null, null, null);
  }
}
