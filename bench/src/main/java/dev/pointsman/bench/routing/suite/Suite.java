package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.run.Progress;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import java.util.List;

/**
 * A named set of scenario runs compared in one table: {@code pointsman bench --suite NAME}. The
 * bench runs its scenarios as any others ({@code --quick}, {@code --seeds}, {@code --policies}
 * apply), writes the usual report, then the suite's own side-by-side summary.
 */
public interface Suite {

  /** One line for {@code --help} and the summary's title. */
  String description();

  /** The scenarios to run, before {@code --seeds} and {@code --quick}. */
  List<Scenario> scenarios();

  /** The policies to run unless {@code --policies} says otherwise. */
  List<String> policies();

  /**
   * Whether {@code --scenario} or {@code --traces} may replace {@link #scenarios()}: a suite whose
   * summary means the same on any scenario (the pods-needed search does; a suite built around its
   * own scenarios does not).
   */
  default boolean takesScenarios() {
    return false;
  }

  /**
   * Refuses, before anything runs, a scenario named on the command line that this suite cannot run,
   * saying why (by default it takes any).
   */
  default void check(Scenario scenario) {}

  /** The side-by-side summary of the results, as Markdown. */
  String summary(List<ScenarioResult> results);

  /**
   * Runs the suite's own search instead of the standard ladder and returns its summary; null (the
   * default) for a suite that runs on the standard ladder and is summarised by {@link #summary}.
   */
  default String search(Search run) {
    return null;
  }

  /**
   * What a searching suite runs on.
   *
   * @param instances the scenarios, variants expanded, already shortened by {@code --quick}
   * @param policies the policies
   * @param seeds the seeds given on the command line, or null
   * @param quick whether {@code --quick} was given
   * @param threads parallel runs
   * @param calibrationRequests requests per pod configuration when calibrating capacity
   * @param progress where progress goes
   * @param ownScenarios whether the scenarios are the suite's own ({@link #scenarios()}), not ones
   *     named on the command line
   * @param custom operator-written policies ({@code --policy-file}) by name, among {@code policies}
   */
  record Search(
      List<Scenario> instances,
      List<String> policies,
      List<Long> seeds,
      boolean quick,
      int threads,
      int calibrationRequests,
      Progress progress,
      boolean ownScenarios,
      java.util.Map<String, dev.pointsman.picker.scheduling.PolicyConfig> custom) {
    public Search {
      custom = java.util.Map.copyOf(custom);
    }
  }
}
