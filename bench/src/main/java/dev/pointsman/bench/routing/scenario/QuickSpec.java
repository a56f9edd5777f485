package dev.pointsman.bench.routing.scenario;

import java.util.List;

/**
 * The short version of a scenario run by {@code --quick} (and the test suite). Null fields keep the
 * full scenario's value, except the run length (default 40 s, 10 s warm-up).
 */
public record QuickSpec(Double durationSeconds, Double warmupSeconds, List<Double> loads) {
  public QuickSpec {
    durationSeconds = Check.positive("durationSeconds", durationSeconds, 40.0);
    warmupSeconds = Check.nonNegative("warmupSeconds", warmupSeconds, 10.0);
    loads = loads == null ? null : List.copyOf(loads);
  }
}
