package dev.pointsman.bench.routing.run;

/** Run results made up for tests of what is derived from them. */
public final class RunResults {
  private RunResults() {}

  /**
   * A run of {@code policy} at {@code load} on {@code seed} whose every TTFT figure is {@code ms}.
   */
  public static RunResult ttft(String policy, double load, long seed, double ms) {
    return ttft(policy, load, seed, ms, java.util.List.of());
  }

  /** As {@link #ttft(String, double, long, double)}, with TTFT by class of traffic. */
  public static RunResult ttft(
      String policy, double load, long seed, double ms, java.util.List<FlowClasses> classes) {
    return new RunResult(
        policy,
        load,
        seed,
        10,
        100,
        0,
        0,
        0,
        0,
        new RunResult.Ttft(ms, ms, ms, ms),
        new RunResult.Tail(10, 20),
        new RunResult.Tail(ms, ms),
        1000,
        9,
        0,
        0,
        0,
        0,
        0,
        null,
        null,
        new int[] {100},
        new double[] {ms},
        classes);
  }
}
