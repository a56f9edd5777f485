package dev.pointsman.bench.routing.fleet;

import dev.pointsman.bench.routing.run.Stats;
import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.fleet.health.Failover;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The fleet benchmark (issue 21, "Measured"): three clusters in two regions, one of them spot, each
 * a small simulated fleet run by the production picker, clients in both regions; the fleet tier's
 * own rule against "nearest cluster" and "round-robin across clusters", then the same with one
 * region lost mid-run. Prints Markdown. Usage: {@code FleetBench [--seeds 1,2,3] [--rates 40,80]
 * [--duration 60] [--loss-at 30]}; the loss is run at the last rate.
 */
public final class FleetBench {
  static final String US = "us-east";
  static final String EU = "eu-west";

  /**
   * A100-80 on demand per GPU-hour: the shipped AWS p4de.24xlarge price ÷ 8 (bench's {@code
   * prices/gpu-prices.yaml}, us-east-1, not re-read live).
   */
  static final double ON_DEMAND = 27.45 / 8;

  /** Spot at 40% of on demand: illustrative, not a quoted price. */
  static final double SPOT = 0.4 * ON_DEMAND;

  /** Round trip within a region and across the Atlantic: illustrative. */
  static final double RTT_LOCAL_MS = 2;

  static final double RTT_WAN_MS = 75;

  private static final String WORKLOAD =
      """
      name: fleet-sharegpt
      description: "Fleet benchmark: ShareGPT-like lengths, Poisson arrivals, the default world."
      fleet:
        - {gpu: A100-80, count: 1}
      workload:
        - {kind: sharegpt, weight: 1}
      arrival: {process: poisson}
      loads: [1.0]
      durationSeconds: 60
      warmupSeconds: 10
      drainSeconds: 60
      seeds: [1]
      scrape: {intervalMs: 50, jitterMs: 50}
      slo: {ttftMs: 1000, tpotMs: 50, kneeP99TtftMs: 2000}
      """;

  private static final String CONVERSATIONS =
      WORKLOAD
          .replace("name: fleet-sharegpt", "name: fleet-multi-turn")
          .replace(
              "{kind: sharegpt, weight: 1}",
              "{kind: multi-turn, weight: 1, systemTokens: 500, minTurns: 2, maxTurns: 8,"
                  + " thinkSeconds: 8, maxContextTokens: 8000}");

  private static final List<FleetRun.Policy> BASELINES =
      List.of(
          FleetRun.Policy.FLEET,
          FleetRun.Policy.FLEET_TTFT_ONLY,
          FleetRun.Policy.NEAREST,
          FleetRun.Policy.ROUND_ROBIN);

  /** The region-loss runs: the baselines and the fleet without its fallbacks. */
  private static final List<FleetRun.Policy> LOSS =
      List.of(
          FleetRun.Policy.FLEET,
          FleetRun.Policy.FLEET_NO_RETRY,
          FleetRun.Policy.FLEET_TTFT_ONLY,
          FleetRun.Policy.NEAREST,
          FleetRun.Policy.ROUND_ROBIN);

  private static final List<FleetRun.Policy> AFFINITY =
      List.of(FleetRun.Policy.FLEET, FleetRun.Policy.FLEET_NO_AFFINITY);

  private FleetBench() {}

  /** As {@link #setup}, with multi-turn conversations (S3's) instead of ShareGPT-like requests. */
  static FleetSetup conversations(double ratePerSecond, double durationMs) {
    FleetSetup s = setup(ratePerSecond, durationMs);
    return new FleetSetup(
        Scenarios.parse(CONVERSATIONS, "FleetBench"),
        s.regions(),
        s.regionShares(),
        s.clusters(),
        s.rttMillis(),
        s.ratePerSecond(),
        s.durationMs(),
        s.warmupMs(),
        s.drainMs(),
        s.sloTtftMs(),
        s.sloTpotMs(),
        s.summaryIntervalMs(),
        s.summaryTimeoutMs(),
        s.failover(),
        null,
        Double.NaN,
        false);
  }

  /** The benchmark's fleet at {@code ratePerSecond}, arrivals over {@code durationMs}. */
  static FleetSetup setup(double ratePerSecond, double durationMs) {
    Scenario workload = Scenarios.parse(WORKLOAD, "FleetBench");
    List<PodGroup> twoA100 = List.of(new PodGroup("A100-80", 2, null, null, null));
    return new FleetSetup(
        workload,
        List.of(US, EU),
        List.of(0.6, 0.4),
        List.of(
            new ClusterSpec("us-spot", US, "spot", SPOT, twoA100),
            new ClusterSpec("us-on-demand", US, "on-demand", ON_DEMAND, twoA100),
            new ClusterSpec("eu-on-demand", EU, "on-demand", ON_DEMAND, twoA100)),
        Map.of(
            US, Map.of(US, RTT_LOCAL_MS, EU, RTT_WAN_MS),
            EU, Map.of(US, RTT_WAN_MS, EU, RTT_LOCAL_MS)),
        ratePerSecond,
        durationMs,
        10_000,
        60_000,
        1000,
        50,
        250,
        1000,
        Failover.DEFAULTS,
        null,
        Double.NaN,
        false);
  }

  public static void main(String[] args) {
    List<Long> seeds = List.of(1L, 2L, 3L);
    List<Double> rates = List.of(40.0, 80.0);
    List<Double> conversationRates = List.of();
    double duration = 60;
    double lossAt = 30;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--seeds" -> seeds = Arrays.stream(args[i + 1].split(",")).map(Long::valueOf).toList();
        case "--rates" ->
            rates = Arrays.stream(args[i + 1].split(",")).map(Double::valueOf).toList();
        case "--conversation-rates" ->
            conversationRates = Arrays.stream(args[i + 1].split(",")).map(Double::valueOf).toList();
        case "--duration" -> duration = Double.parseDouble(args[i + 1]);
        case "--loss-at" -> lossAt = Double.parseDouble(args[i + 1]);
        default ->
            throw new IllegalArgumentException(
                args[i]
                    + ": unknown (expected --seeds, --rates, --conversation-rates, --duration or --loss-at)");
      }
    }
    FleetSetup setup = null;
    for (double rate : rates) {
      setup = setup(rate, duration * 1000);
      System.out.printf(
          Locale.ROOT,
          "Fleet benchmark: %.0f req/s, %.0f s of arrivals (10 s warm-up), seeds %s%n%n",
          rate,
          duration,
          seeds);
      System.out.println(table(setup, BASELINES, seeds));
    }
    for (double rate : conversationRates) {
      System.out.printf(
          Locale.ROOT,
          "Multi-turn conversations, %.0f req/s, with and without affinity:%n%n",
          rate);
      System.out.println(table(conversations(rate, duration * 1000), AFFINITY, seeds));
    }
    for (boolean silent : new boolean[] {false, true}) {
      FleetSetup lossy = setup.withLoss(EU, lossAt * 1000, silent);
      System.out.printf(
          Locale.ROOT,
          "Region %s lost at %.0f s (%s):%n%n",
          EU,
          lossAt,
          silent ? "partitioned: nothing heard" : "stopped: connections refused");
      System.out.println(failoverTable(lossy, seeds));
    }
  }

  static List<FleetOutcomes> runs(FleetSetup setup, FleetRun.Policy policy, List<Long> seeds) {
    List<FleetOutcomes> out = new ArrayList<>();
    for (long seed : seeds) {
      out.add(new FleetRun(setup, policy, seed).run());
    }
    return out;
  }

  private static String table(FleetSetup setup, List<FleetRun.Policy> policies, List<Long> seeds) {
    StringBuilder sb =
        new StringBuilder(
            "| policy | SLO attainment | TTFT ≤ SLO | p50 TTFT (ms) | p99 TTFT (ms) | p99 TPOT"
                + " (ms) | busy-GPU $/M tokens | provisioned $/M tokens | spot share of tokens |"
                + " served cross-region | prompt tokens cached | failed |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (FleetRun.Policy p : policies) {
      List<FleetOutcomes.Figures> f = runs(setup, p, seeds).stream().map(o -> o.figures()).toList();
      sb.append("| ")
          .append(p.label)
          .append(" | ")
          .append(cell(f, x -> 100 * x.sloAttainment(), "%.1f%%"))
          .append(" | ")
          .append(cell(f, x -> 100 * x.ttftAttainment(), "%.1f%%"))
          .append(" | ")
          .append(cell(f, FleetOutcomes.Figures::ttftP50Ms, "%.0f"))
          .append(" | ")
          .append(cell(f, FleetOutcomes.Figures::ttftP99Ms, "%.0f"))
          .append(" | ")
          .append(cell(f, FleetOutcomes.Figures::tpotP99Ms, "%.1f"))
          .append(" | ")
          .append(cell(f, FleetOutcomes.Figures::busyCostPerMTok, "%.3f"))
          .append(" | ")
          .append(cell(f, FleetOutcomes.Figures::provisionedCostPerMTok, "%.3f"))
          .append(" | ")
          .append(cell(f, x -> 100 * x.spotTokenShare(), "%.1f%%"))
          .append(" | ")
          .append(cell(f, x -> 100 * x.crossRegionShare(), "%.1f%%"))
          .append(" | ")
          .append(cell(f, x -> 100 * x.cachedPromptShare(), "%.1f%%"))
          .append(" | ")
          .append(cell(f, x -> x.failed(), "%.1f"))
          .append(" |\n");
    }
    return sb.toString();
  }

  private static String failoverTable(FleetSetup setup, List<Long> seeds) {
    StringBuilder sb =
        new StringBuilder(
            "| policy | time to drain (ms) | last sent there (ms) | lost in flight | lost, not started |"
                + " resent, served | rejected | p99 TTFT in the 10 s after (ms) | SLO attainment"
                + " then |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
    for (FleetRun.Policy p : LOSS) {
      List<FleetOutcomes.Failover> f =
          runs(setup, p, seeds).stream().map(o -> o.failover()).toList();
      sb.append("| ")
          .append(p.label)
          .append(" | ")
          .append(cell(f, FleetOutcomes.Failover::drainMs, "%.0f"))
          .append(" | ")
          .append(cell(f, FleetOutcomes.Failover::lastSentMs, "%.0f"))
          .append(" | ")
          .append(cell(f, x -> x.lostInFlight(), "%.1f"))
          .append(" | ")
          .append(cell(f, x -> x.lostUnstarted(), "%.1f"))
          .append(" | ")
          .append(cell(f, x -> x.resentServed(), "%.1f"))
          .append(" | ")
          .append(cell(f, x -> x.rejected(), "%.1f"))
          .append(" | ")
          .append(cell(f, FleetOutcomes.Failover::windowTtftP99Ms, "%.0f"))
          .append(" | ")
          .append(cell(f, x -> 100 * x.windowSloAttainment(), "%.1f%%"))
          .append(" |\n");
    }
    return sb.toString();
  }

  /** Mean ± half-width of the 95% t-interval over seeds (the mean alone under three). */
  static <T> String cell(List<T> rows, ToDoubleFunction<T> f, String format) {
    double[] v = rows.stream().mapToDouble(f).toArray();
    String mean = String.format(Locale.ROOT, format, Stats.mean(v));
    if (v.length < 3) {
      return mean;
    }
    return mean + " ± " + String.format(Locale.ROOT, format, Stats.halfWidth95(v));
  }
}
