package dev.pointsman.bench.routing.scenario;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The scenario of {@code pointsman bench --trace FILE [--fleet FILE]}: the trace on the fleet, on a
 * load ladder of 20% to 100% of the fleet's calibrated capacity, 300 simulated seconds per point
 * (30 s warm-up), seed 1; {@code --quick}: 60 s at 30% and 60%. A scenario file with {@code trace:}
 * sets any of these.
 */
public final class TraceScenarios {
  private TraceScenarios() {}

  /** The scenario replaying {@code trace} on {@code fleet}. */
  public static Scenario of(String trace, FleetFile fleet) {
    return of(trace, fleet, null);
  }

  /**
   * The scenario replaying {@code trace} on {@code fleet} at {@code rateReqPerS} (null: none
   * stated): the pods-needed search sizes the fleet for the trace at that absolute rate.
   */
  public static Scenario of(String trace, FleetFile fleet, Double rateReqPerS) {
    TraceSpec spec = TraceSpec.of(trace);
    return new Scenario(
        name(trace),
        "Trace " + trace + " replayed on the given fleet.",
        fleet.model(),
        fleet.pools(),
        null,
        null,
        null,
        List.of(0.2, 0.4, 0.6, 0.8, 1.0),
        0.6,
        300.0,
        null,
        30.0,
        300.0,
        List.of(1L),
        null,
        null,
        null,
        null,
        null,
        new QuickSpec(60.0, 10.0, List.of(0.3, 0.6)),
        null,
        null,
        fleet.contextTokens(),
        spec,
        rateReqPerS,
        null);
  }

  /** {@code trace-} and the file's name without folders and extensions, in scenario-name form. */
  static String name(String trace) {
    Path file = Path.of(trace).getFileName();
    String base = file == null ? "trace" : file.toString().toLowerCase(Locale.ROOT);
    int dot = base.indexOf('.');
    base = dot > 0 ? base.substring(0, dot) : base;
    base = base.replaceAll("[^a-z0-9.-]+", "-").replaceAll("^-+|-+$", "");
    return "trace-" + (base.isEmpty() ? "file" : base);
  }
}
