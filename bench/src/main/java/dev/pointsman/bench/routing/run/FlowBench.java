package dev.pointsman.bench.routing.run;

import dev.pointsman.bench.routing.scenario.FlowSpec;
import dev.pointsman.bench.routing.scenario.ProductionSpec;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The flow-control scenarios (issue 18): each scenario at its headline load, for each seed, with
 * the picker behind its flow control as the scenario declares it and with flow control off (the
 * same scenario, same requests), printed as Markdown with TTFT by class of traffic.
 *
 * <p>Usage: {@code FlowBench [--quick] [--seeds 1,2,3] [--policies pointsman,...] scenario...}
 */
public final class FlowBench {
  private FlowBench() {}

  public static void main(String[] args) {
    boolean quick = false;
    List<Long> seeds = null;
    List<String> policies = List.of("pointsman");
    List<String> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> quick = true;
        case "--seeds" ->
            seeds = List.of(args[++i].split(",")).stream().map(Long::valueOf).toList();
        case "--policies" -> policies = List.of(args[++i].split(","));
        default -> files.add(args[i]);
      }
    }
    run(files, quick, seeds, policies, System.out);
  }

  static void run(
      List<String> files, boolean quick, List<Long> seeds, List<String> policies, PrintStream out) {
    for (String f : files) {
      Scenario declared = Scenarios.load(f);
      Scenario s = quick ? declared.quickVersion() : declared;
      if (seeds != null) {
        s = s.withSeeds(seeds);
      }
      int calibration =
          quick ? BenchRunner.QUICK_CALIBRATION_REQUESTS : BenchRunner.CALIBRATION_REQUESTS;
      Capacity capacity = Capacity.calibrate(s, calibration, s.seeds().get(0) + 1000);
      ProductionSpec p = s.production();
      List<Scenario> modes = new ArrayList<>();
      modes.add(s);
      if (p.flowControl().enabled()) {
        modes.add(
            s.withProduction(
                s.name() + "-no-flow",
                new ProductionSpec(
                    p.pickerReplicas(),
                    p.envoys(),
                    p.streamedFraction(),
                    p.text(),
                    p.sharing(),
                    FlowSpec.off())));
      }
      double load = s.headlineLoad();
      out.printf(
          Locale.ROOT,
          "%n### %s (load %.2f of capacity, %.1f req/s, %s)%n%n",
          s.name(),
          load,
          PolicyRun.rate(capacity, load),
          quick ? "--quick" : "full");
      out.println(
          "| policy | flow control | seed | class | requests | shed | failed | p50 TTFT ms | p99"
              + " TTFT ms | TTFT within SLO |");
      out.println("|---|---|---|---|---|---|---|---|---|---|");
      for (String policy : policies) {
        for (Scenario m : modes) {
          for (long seed : s.seeds()) {
            FlowClasses.Classed c = PolicyRun.runClassed(m, capacity, policy, load, seed);
            String flow = m.production().flowControl().enabled() ? "on" : "off";
            RunResult r = c.result();
            out.printf(
                Locale.ROOT,
                "| %s | %s | %d | all | %d | %d | %d | %.0f | %.0f | |%n",
                policy,
                flow,
                seed,
                r.completed() + r.failed() + r.shed(),
                r.shed(),
                r.failed(),
                r.ttftMs().p50(),
                r.ttftMs().p99());
            for (FlowClasses k : c.classes()) {
              out.printf(
                  Locale.ROOT,
                  "| %s | %s | %d | %s | %d | %d | %d | %.0f | %.0f | %.1f%% |%n",
                  policy,
                  flow,
                  seed,
                  k.name(),
                  k.requests(),
                  k.shed(),
                  k.failed(),
                  k.p50TtftMs(),
                  k.p99TtftMs(),
                  100 * k.withinSlo());
            }
            out.flush();
          }
        }
      }
    }
  }
}
