package dev.pointsman.bench.routing.suite;

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

  /** The side-by-side summary of the results, as Markdown. */
  String summary(List<ScenarioResult> results);
}
