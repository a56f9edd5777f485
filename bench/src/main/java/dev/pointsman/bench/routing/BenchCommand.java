package dev.pointsman.bench.routing;

import dev.pointsman.bench.routing.policy.Policies;
import dev.pointsman.bench.routing.report.ReportWriter;
import dev.pointsman.bench.routing.run.BenchRunner;
import dev.pointsman.bench.routing.run.Progress;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.bench.routing.suite.Suite;
import dev.pointsman.bench.routing.suite.Suites;
import dev.pointsman.picker.scheduling.PolicyConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pointsman bench}: the routing benchmark. Every policy on the same request streams, on the
 * simulator in virtual time, with the production scheduler for {@code pointsman}.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    header = "Runs the routing benchmark: every policy on the same traffic, in virtual time.",
    description = {
      "Runs the routing benchmark: every policy on the same traffic, in one run, on the"
          + " production scheduler against a simulated fleet in virtual time, and writes tables,"
          + " charts and raw results to --out.",
      "",
      "Scenario files and their keys, the shipped scenarios s1..s5 and how to read the results:"
          + " docs/benchmarks.md."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  ./pointsman bench --scenario s1 --quick",
      "  ./pointsman bench --suite replicas --quick",
      "  ./pointsman bench --suite mismatch --quick"
    })
public final class BenchCommand implements Callable<Integer> {

  @Option(
      names = "--scenario",
      arity = "1..*",
      paramLabel = "FILE",
      description = "Scenario YAML files, or shipped names s1..s5.")
  List<String> scenarios;

  @Option(
      names = "--suite",
      paramLabel = "NAME",
      description =
          "Runs a suite instead of --scenario, and writes its side-by-side summary: ${COMPLETION-CANDIDATES}.",
      completionCandidates = SuiteNames.class)
  String suite;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("bench-results");

  @Option(
      names = "--quick",
      description = "Runs a short version (short runs, fewer loads, one seed).")
  boolean quick;

  @Option(
      names = "--clean-world",
      description =
          "Runs in the clean world: no step noise, stragglers or restarts, scrapes that arrive at"
              + " once and never fail (default: each scenario's world, imperfect unless it says"
              + " cleanWorld: true).")
  boolean cleanWorld;

  @Option(
      names = "--policies",
      split = ",",
      paramLabel = "NAME",
      description = "Policies to run (default: all): ${COMPLETION-CANDIDATES}.",
      completionCandidates = PolicyNames.class)
  List<String> policies;

  @Option(
      names = "--policy-file",
      paramLabel = "NAME=FILE",
      description =
          "Also run an operator-written policy (YAML: the picker's pool 'policy:' section) under"
              + " NAME, on the production scheduler. Repeatable.")
  Map<String, Path> policyFiles;

  @Option(names = "--seeds", split = ",", paramLabel = "SEED", description = "Overrides the seeds.")
  List<Long> seeds;

  @Option(names = "--threads", description = "Parallel runs (default: ${DEFAULT-VALUE}).")
  int threads = 2;

  @Option(names = "--no-progress", description = "Prints no progress bar.")
  boolean noProgress;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Runs the command without the launcher: {@code java -cp … BenchCommand --scenario s1}. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchCommand()).execute(args));
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    List<String> names;
    Map<String, PolicyConfig> custom = new HashMap<>();
    List<Scenario> instances = new ArrayList<>();
    Suite chosen = null;
    try {
      if ((suite == null) == (scenarios == null || scenarios.isEmpty())) {
        throw new IllegalArgumentException("give either --scenario or --suite");
      }
      List<Scenario> bases = new ArrayList<>();
      if (suite != null) {
        chosen = Suites.get(suite);
        bases.addAll(chosen.scenarios());
      } else {
        for (String s : scenarios) {
          bases.add(Scenarios.load(s));
        }
      }
      List<String> defaults = chosen != null ? chosen.policies() : Policies.ALL;
      names = new ArrayList<>(policies == null ? defaults : Policies.validate(policies));
      if (policyFiles != null) {
        for (Map.Entry<String, Path> e : new TreeMap<>(policyFiles).entrySet()) {
          custom.put(e.getKey(), Policies.readCustom(e.getKey(), e.getValue()));
          names.add(e.getKey());
        }
      }
      if (threads < 1) {
        throw new IllegalArgumentException("--threads: " + threads + " (expected >= 1)");
      }
      for (Scenario scenario : bases) {
        if (seeds != null && !seeds.isEmpty()) {
          scenario = scenario.withSeeds(seeds);
        }
        if (quick) {
          scenario = scenario.quickVersion();
        }
        if (cleanWorld) {
          scenario = scenario.inCleanWorld();
        }
        instances.addAll(scenario.instances());
      }
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      err.println("bench: " + e.getMessage());
      return 2;
    }
    Progress progress = noProgress ? Progress.disabled() : Progress.forTerminal();
    int calibration =
        quick ? BenchRunner.QUICK_CALIBRATION_REQUESTS : BenchRunner.CALIBRATION_REQUESTS;
    List<ScenarioResult> results =
        new BenchRunner(names, custom, threads, calibration, progress).run(instances);
    Path report = ReportWriter.write(results, out, commandLine());
    spec.commandLine().getOut().println("bench: wrote " + report);
    if (chosen != null) {
      Path summary = out.resolve("suite-" + suite + ".md");
      String text = chosen.summary(results);
      try {
        java.nio.file.Files.writeString(summary, text);
      } catch (java.io.IOException e) {
        err.println("bench: cannot write " + summary + " (" + e.getMessage() + ")");
        return 1;
      }
      spec.commandLine().getOut().print(text);
      spec.commandLine().getOut().println("bench: wrote " + summary);
    }
    return 0;
  }

  /** Runs expanded scenarios (for tests and tools). */
  public static List<ScenarioResult> run(
      List<Scenario> instances, List<String> policies, boolean quick, int threads, Progress p) {
    int calibration =
        quick ? BenchRunner.QUICK_CALIBRATION_REQUESTS : BenchRunner.CALIBRATION_REQUESTS;
    return new BenchRunner(policies, threads, calibration, p).run(instances);
  }

  private String commandLine() {
    StringBuilder sb = new StringBuilder("pointsman bench");
    if (suite != null) {
      sb.append(" --suite ").append(suite);
    } else {
      sb.append(" --scenario");
      for (String s : scenarios) {
        sb.append(' ').append(s);
      }
    }
    sb.append(" --out ").append(out);
    if (quick) {
      sb.append(" --quick");
    }
    if (cleanWorld) {
      sb.append(" --clean-world");
    }
    if (policies != null) {
      sb.append(" --policies ").append(String.join(",", policies));
    }
    if (policyFiles != null) {
      new TreeMap<>(policyFiles)
          .forEach((k, v) -> sb.append(" --policy-file ").append(k).append('=').append(v));
    }
    if (seeds != null) {
      sb.append(" --seeds ").append(seeds.stream().map(String::valueOf).toList());
    }
    return sb.toString();
  }

  /** Completion candidates for {@code --suite}. */
  static final class SuiteNames extends ArrayList<String> {
    SuiteNames() {
      super(Suites.names());
    }
  }

  /** Completion candidates for {@code --policies}. */
  static final class PolicyNames extends ArrayList<String> {
    PolicyNames() {
      super(Policies.ALL);
    }
  }
}
