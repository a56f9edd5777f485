package dev.pointsman.bench.routing;

import dev.pointsman.bench.routing.policy.Policies;
import dev.pointsman.bench.routing.report.ReportWriter;
import dev.pointsman.bench.routing.run.BenchRunner;
import dev.pointsman.bench.routing.run.Fleets;
import dev.pointsman.bench.routing.run.Progress;
import dev.pointsman.bench.routing.run.ScenarioResult;
import dev.pointsman.bench.routing.scenario.FleetFile;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.bench.routing.scenario.TraceScenarios;
import dev.pointsman.bench.routing.suite.Suite;
import dev.pointsman.bench.routing.suite.Suites;
import dev.pointsman.bench.routing.trace.TraceFiles;
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
      "With --trace it replays a request trace (Mooncake JSONL or Azure CSV) on a fleet: arrivals"
          + " from its timestamps, rescaled to each load of the ladder, and lengths and prefix"
          + " sharing from its columns. --traces runs the shipped trace scenarios t1..t5.",
      "",
      "Scenario files and their keys, the shipped scenarios s1..s5 and t1..t5, the trace and fleet"
          + " formats and how to read the results: docs/benchmarks.md."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  ./pointsman bench --scenario s1 --quick",
      "  ./pointsman bench --suite replicas --quick",
      "  ./pointsman bench --suite mismatch --quick",
      "  ./pointsman bench --suite ablations --quick",
      "  ./pointsman bench --suite pods-needed --quick",
      "  ./pointsman bench --trace my-trace.jsonl --fleet examples/bench-fleet.yaml --quick",
      "  ./pointsman bench --suite pods-needed --trace recorded.jsonl --fleet examples/bench-fleet.yaml"
    })
public final class BenchCommand implements Callable<Integer> {

  @Option(
      names = "--scenario",
      arity = "1..*",
      paramLabel = "FILE",
      description = "Scenario YAML files, or shipped names s1..s5 and t1..t5.")
  List<String> scenarios;

  @Option(
      names = "--suite",
      paramLabel = "NAME",
      description =
          "Runs a suite instead of --scenario, and writes its side-by-side summary: ${COMPLETION-CANDIDATES}.",
      completionCandidates = SuiteNames.class)
  String suite;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description =
          "Replays a request trace: Mooncake JSONL (timestamp, input_length, output_length,"
              + " hash_ids) or Azure CSV (TIMESTAMP, ContextTokens, GeneratedTokens), plain or"
              + " gzip, format detected from the name or first line.")
  String trace;

  @Option(
      names = "--fleet",
      paramLabel = "FILE",
      description =
          "The fleet for --trace (YAML: 'pools:' of gpu and count, optional model and"
              + " contextTokens; default: 2×H100-80 + 2×A100-80 + 4×L4).")
  Path fleet;

  @Option(
      names = "--traces",
      description =
          "Runs the shipped trace scenarios t1..t5 (skipping, with the reason, any whose"
              + " simulator profiles this build lacks).")
  boolean traces;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("bench-results");

  @Option(
      names = "--quick",
      description =
          "Runs a short version (short runs, fewer loads, one seed unless --seeds says more).")
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
      description =
          "Policies to run (default: a suite's own, else all but the ablations random and"
              + " *-only, which --suite ablations runs): ${COMPLETION-CANDIDATES}.",
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

  @Option(
      names = "--picker-replicas",
      paramLabel = "N",
      description =
          "Runs every scenario with N picker replicas sharing state, as the chart deploys them"
              + " (production: {pickerReplicas: N, sharing: true}); each replica sees its share of"
              + " the traffic. Scenario names get '-pickers-N'.")
  Integer pickerReplicas;

  @Option(
      names = "--warmup-seconds",
      paramLabel = "S",
      description =
          "Runs every scenario with an S-second warm-up, its measured window as long as before"
              + " (warm-up sensitivity). Scenario names get '-warmup-S'.")
  Double warmupSeconds;

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
      if (suite != null) {
        chosen = Suites.get(suite);
      }
      List<Scenario> bases = selected(err, chosen);
      List<String> defaults = chosen != null ? chosen.policies() : Policies.STANDARD;
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
        if (quick) {
          scenario = scenario.quickVersion();
        }
        if (seeds != null && !seeds.isEmpty()) {
          // after --quick, which keeps one seed: seeds given explicitly are all run
          scenario = scenario.withSeeds(seeds);
        }
        if (cleanWorld) {
          scenario = scenario.inCleanWorld();
        }
        if (pickerReplicas != null) {
          scenario = withPickers(scenario, pickerReplicas);
        }
        if (warmupSeconds != null) {
          scenario =
              scenario.withWarmupSeconds(
                  scenario.name() + "-warmup-" + Math.round(warmupSeconds), warmupSeconds);
        }
        instances.addAll(scenario.instances());
      }
      for (Scenario s : instances) {
        if (chosen != null) {
          chosen.check(s);
        }
        Fleets.configs(s);
        if (s.trace() != null) {
          TraceFiles.load(s.trace());
        }
      }
      if (instances.isEmpty()) {
        throw new IllegalArgumentException("no scenario to run");
      }
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      err.println("bench: " + e.getMessage());
      return 2;
    }
    Progress progress = noProgress ? Progress.disabled() : Progress.forTerminal();
    int calibration =
        quick ? BenchRunner.QUICK_CALIBRATION_REQUESTS : BenchRunner.CALIBRATION_REQUESTS;
    if (chosen != null) {
      String searched =
          chosen.search(
              new Suite.Search(
                  instances,
                  names,
                  seeds,
                  quick,
                  threads,
                  calibration,
                  progress,
                  ownScenarios,
                  custom));
      if (searched != null) {
        return writeSummary(err, searched);
      }
    }
    List<ScenarioResult> results =
        new BenchRunner(names, custom, threads, calibration, progress).run(instances);
    Path report = ReportWriter.write(results, out, commandLine());
    spec.commandLine().getOut().println("bench: wrote " + report);
    if (chosen != null) {
      return writeSummary(err, chosen.summary(results));
    }
    return 0;
  }

  /** Writes and prints the suite's summary. */
  private int writeSummary(PrintWriter err, String text) {
    Path summary = out.resolve("suite-" + suite + ".md");
    try {
      java.nio.file.Files.createDirectories(out);
      java.nio.file.Files.writeString(summary, text);
    } catch (java.io.IOException e) {
      err.println("bench: cannot write " + summary + " (" + e.getMessage() + ")");
      return 1;
    }
    spec.commandLine().getOut().print(text);
    spec.commandLine().getOut().println("bench: wrote " + summary);
    return 0;
  }

  /** {@code scenario} deployed with {@code n} picker replicas that share state. */
  static Scenario withPickers(Scenario scenario, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("--picker-replicas: " + n + " (expected >= 1)");
    }
    dev.pointsman.bench.routing.scenario.ProductionSpec p = scenario.production();
    return scenario.withProduction(
        scenario.name() + "-pickers-" + n,
        new dev.pointsman.bench.routing.scenario.ProductionSpec(
            n,
            p.envoys(),
            p.streamedFraction(),
            p.text(),
            n >= 2 ? Boolean.TRUE : null,
            p.flowControl()));
  }

  /** Whether the scenarios are the chosen suite's own (set by {@link #selected}). */
  private boolean ownScenarios;

  /** The scenarios that --scenario, --suite, --trace or --traces name (exactly one of them). */
  private List<Scenario> selected(PrintWriter err, Suite chosen) {
    boolean named = scenarios != null && !scenarios.isEmpty() || traces || trace != null;
    boolean replaced = chosen != null && chosen.takesScenarios() && named;
    int given =
        (scenarios != null && !scenarios.isEmpty() ? 1 : 0)
            + (chosen != null && !replaced ? 1 : 0)
            + (trace != null ? 1 : 0)
            + (traces ? 1 : 0);
    if (given != 1) {
      throw new IllegalArgumentException(
          given
              + " of --scenario, --suite, --trace and --traces given (expected exactly one; --suite"
              + " pods-needed also takes --scenario or --traces)");
    }
    ownScenarios = chosen != null && !replaced;
    if (ownScenarios) {
      return chosen.scenarios();
    }
    if (fleet != null && trace == null) {
      throw new IllegalArgumentException("--fleet: applies to --trace only");
    }
    if (trace != null) {
      // the pods-needed search sizes the fleet for the trace as recorded: at its own mean rate
      Double rate =
          replaced
              ? dev.pointsman.bench.routing.trace.TraceFiles.load(
                      dev.pointsman.bench.routing.scenario.TraceSpec.of(trace))
                  .meanRatePerSecond()
              : null;
      if (rate != null && !(rate > 0)) {
        throw new IllegalArgumentException(
            "--trace " + trace + ": no arrival rate (expected two or more requests over time)");
      }
      return List.of(
          TraceScenarios.of(
              trace, fleet == null ? FleetFile.DEFAULT : FleetFile.read(fleet), rate));
    }
    List<Scenario> out = new ArrayList<>();
    if (!traces) {
      scenarios.forEach(name -> out.add(Scenarios.load(name)));
      return out;
    }
    for (String name : Scenarios.TRACES) {
      // a shipped scenario may need simulator profiles this build lacks (t5: the 70B shape)
      try {
        Scenario s = Scenarios.load(name);
        Fleets.configs(s);
        if (chosen != null) {
          chosen.check(s); // --suite pods-needed --traces: the traces without a rate are skipped
        }
        out.add(s);
      } catch (IllegalArgumentException e) {
        String why = e.getMessage();
        err.println("bench: skipping " + (why.startsWith(name) ? why : name + ": " + why));
      }
    }
    return out;
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
    }
    if (scenarios != null) {
      sb.append(" --scenario");
      scenarios.forEach(s -> sb.append(' ').append(s));
    }
    if (trace != null) {
      sb.append(" --trace ").append(trace);
    }
    if (fleet != null) {
      sb.append(" --fleet ").append(fleet);
    }
    if (traces) {
      sb.append(" --traces");
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
    if (pickerReplicas != null) {
      sb.append(" --picker-replicas ").append(pickerReplicas);
    }
    if (warmupSeconds != null) {
      sb.append(" --warmup-seconds ").append(warmupSeconds);
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
