package dev.pointsman.bench.routing.scenario;

import java.util.List;
import java.util.Set;

/**
 * When requests arrive. Inter-arrival gaps are exponential ({@code poisson}) or Gamma with
 * coefficient of variation {@code cv} (shape 1/cv²); the rate may follow a pattern, rescaled so
 * that its time average is the target rate (so a load fraction keeps its meaning).
 *
 * @param process {@code poisson} or {@code gamma}
 * @param cv Gamma's coefficient of variation (default 1)
 * @param pattern {@code constant} (default), {@code square} or {@code ladder}
 * @param high square wave: rate factor of the high phase (default 3)
 * @param highSeconds square wave: duration of the high phase (default 10)
 * @param low square wave: rate factor of the low phase (default 0.33)
 * @param lowSeconds square wave: duration of the low phase (default 30)
 * @param levels ladder: rate factors stepped through in a cycle (default 1,2,3,4,5,4,3,2)
 * @param stepSeconds ladder: duration of each step (default 15)
 */
public record ArrivalSpec(
    String process,
    Double cv,
    String pattern,
    Double high,
    Double highSeconds,
    Double low,
    Double lowSeconds,
    List<Double> levels,
    Double stepSeconds) {

  private static final Set<String> PROCESSES = Set.of("poisson", "gamma");
  private static final Set<String> PATTERNS = Set.of("constant", "square", "ladder");

  public ArrivalSpec {
    process = process == null ? "poisson" : process;
    if (!PROCESSES.contains(process)) {
      throw new IllegalArgumentException("process: '" + process + "' (expected poisson or gamma)");
    }
    cv = Check.positive("cv", cv, 1.0);
    pattern = pattern == null ? "constant" : pattern;
    if (!PATTERNS.contains(pattern)) {
      throw new IllegalArgumentException(
          "pattern: '" + pattern + "' (expected constant, square or ladder)");
    }
    high = Check.positive("high", high, 3.0);
    highSeconds = Check.positive("highSeconds", highSeconds, 10.0);
    low = Check.positive("low", low, 0.33);
    lowSeconds = Check.positive("lowSeconds", lowSeconds, 30.0);
    levels = List.copyOf(levels == null ? List.of(1.0, 2.0, 3.0, 4.0, 5.0, 4.0, 3.0, 2.0) : levels);
    for (int i = 0; i < levels.size(); i++) {
      Check.positive("levels[" + i + "]", levels.get(i), 1);
    }
    if (levels.isEmpty()) {
      throw new IllegalArgumentException("levels: [] (expected at least one level)");
    }
    stepSeconds = Check.positive("stepSeconds", stepSeconds, 15.0);
  }

  public static ArrivalSpec poisson() {
    return new ArrivalSpec(null, null, null, null, null, null, null, null, null);
  }

  /** Gamma's shape, 1/cv² (1 for Poisson). */
  public double shape() {
    return "poisson".equals(process) ? 1.0 : 1.0 / (cv * cv);
  }

  /** A short description for reports. */
  public String describe() {
    String base = "poisson".equals(process) ? "Poisson" : "Gamma CV " + cv;
    return switch (pattern) {
      case "square" ->
          base
              + ", square wave "
              + highSeconds
              + " s at "
              + high
              + "× / "
              + lowSeconds
              + " s at "
              + low
              + "× (normalised)";
      case "ladder" -> base + ", ladder " + levels + " × " + stepSeconds + " s (normalised)";
      default -> base;
    };
  }
}
