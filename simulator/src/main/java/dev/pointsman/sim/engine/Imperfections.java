package dev.pointsman.sim.engine;

import java.util.Locale;

/**
 * How far a simulated pod departs from its clean, deterministic step-time model (docs/simulator.md,
 * "An imperfect world"). Every draw is seeded (see {@link Disturbances}), so a run stays
 * reproducible. Readable from YAML: each unset field takes the value of {@code base}.
 *
 * @param base {@code realistic} (the default) or {@code clean}: where unset fields come from
 * @param stepNoiseSigma each step's duration is multiplied by {@code exp(sigma * Z)}, Z standard
 *     normal: log-normal with median 1 and mean {@code exp(sigma^2 / 2)}; 0 turns it off
 * @param stragglersPerPodHour rate of straggler episodes per pod (a Poisson process, counted from
 *     the end of the previous episode)
 * @param stragglerMinSlowdown least factor a straggler's steps are slowed by, at least 1
 * @param stragglerMaxSlowdown greatest factor; each episode draws uniformly in [min, max]
 * @param stragglerSeconds length of each straggler episode
 * @param restartsPerPodHour rate of engine restarts per pod (a Poisson process, counted from the
 *     end of the previous restart)
 * @param restartSeconds how long a restarting pod is unavailable
 */
public record Imperfections(
    String base,
    Double stepNoiseSigma,
    Double stragglersPerPodHour,
    Double stragglerMinSlowdown,
    Double stragglerMaxSlowdown,
    Double stragglerSeconds,
    Double restartsPerPodHour,
    Double restartSeconds) {

  /** No noise, no stragglers, no restarts: the deterministic engine. */
  public static final Imperfections CLEAN =
      new Imperfections("clean", 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0);

  /**
   * The default imperfect world. Step noise sigma 0.1: a single L4 serving one stream under vLLM
   * v0.23 showed inter-token latency p50 5.1 ms and p95 6.1 ms (ai.wmx.dev/benchmarks), a p95/p50
   * ratio of 1.2, i.e. sigma = ln(1.2) / 1.645 = 0.11. Stragglers (2 per pod-hour, 2-3x for 30 s)
   * and restarts (0.25 per pod-hour, 60 s unavailable, about the time an 8B model takes to load and
   * capture its CUDA graphs) are chosen, not measured: rates at which a benchmark run of minutes on
   * eight pods meets some, far more often than a healthy fleet does.
   */
  public static final Imperfections REALISTIC =
      new Imperfections("realistic", 0.1, 2.0, 2.0, 3.0, 30.0, 0.25, 60.0);

  /** Fills unset fields from {@code base} and validates. */
  public Imperfections {
    base = base == null ? "realistic" : base.toLowerCase(Locale.ROOT);
    Imperfections from =
        switch (base) {
          case "realistic" -> REALISTIC;
          case "clean" -> CLEAN;
          default ->
              throw new IllegalArgumentException(
                  "base: '" + base + "' (expected one of [realistic, clean])");
        };
    if (from != null) { // null only while the two constants themselves are built
      stepNoiseSigma = orElse(stepNoiseSigma, from.stepNoiseSigma);
      stragglersPerPodHour = orElse(stragglersPerPodHour, from.stragglersPerPodHour);
      stragglerMinSlowdown = orElse(stragglerMinSlowdown, from.stragglerMinSlowdown);
      stragglerMaxSlowdown = orElse(stragglerMaxSlowdown, from.stragglerMaxSlowdown);
      stragglerSeconds = orElse(stragglerSeconds, from.stragglerSeconds);
      restartsPerPodHour = orElse(restartsPerPodHour, from.restartsPerPodHour);
      restartSeconds = orElse(restartSeconds, from.restartSeconds);
    }
    nonNegative("stepNoiseSigma", stepNoiseSigma);
    nonNegative("stragglersPerPodHour", stragglersPerPodHour);
    nonNegative("stragglerSeconds", stragglerSeconds);
    nonNegative("restartsPerPodHour", restartsPerPodHour);
    nonNegative("restartSeconds", restartSeconds);
    if (!(stragglerMinSlowdown >= 1)
        || !(stragglerMaxSlowdown >= stragglerMinSlowdown)
        || Double.isInfinite(stragglerMaxSlowdown)) {
      throw new IllegalArgumentException(
          "stragglerMinSlowdown/stragglerMaxSlowdown: "
              + stragglerMinSlowdown
              + "/"
              + stragglerMaxSlowdown
              + " (expected 1 <= min <= max)");
    }
  }

  /** Whether nothing departs from the clean engine. */
  public boolean isClean() {
    return stepNoiseSigma == 0
        && (stragglersPerPodHour == 0 || stragglerSeconds == 0 || stragglerMaxSlowdown == 1)
        && restartsPerPodHour == 0;
  }

  private static Double orElse(Double value, Double dflt) {
    return value != null ? value : dflt;
  }

  private static void nonNegative(String field, Double v) {
    if (v == null || !(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(field + ": " + v + " (expected a finite value >= 0)");
    }
  }
}
