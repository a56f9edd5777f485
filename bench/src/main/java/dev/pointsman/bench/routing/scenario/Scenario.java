package dev.pointsman.bench.routing.scenario;

import dev.pointsman.sim.engine.Imperfections;
import java.util.ArrayList;
import java.util.List;

/**
 * A routing-benchmark scenario, as written in {@code bench/scenarios/*.yaml}: the fleet, the
 * workload mix, the arrival process, the load ladder (fractions of the fleet's calibrated
 * capacity), run length and warm-up, seeds, metric scraping and SLOs.
 *
 * @param name kebab-case name, used for output folders
 * @param description one line for reports
 * @param model base model name served by every pod
 * @param fleet the pods
 * @param workload the traffic mix (weights are relative)
 * @param lora LoRA adapter mix, or null for base-model traffic only
 * @param arrival the arrival process
 * @param loads the load ladder, fractions of fleet capacity, ascending
 * @param headlineLoad the load of the TTFT CDF chart and headline table (default 0.5)
 * @param durationSeconds simulated run length per (policy, load, seed), warm-up included
 * @param headlineDurationSeconds run length at the headline load, or null for {@code
 *     durationSeconds} (a long headline run is affordable where a long ladder is not)
 * @param warmupSeconds requests arriving before this are not measured
 * @param drainSeconds time after the run for queued requests to finish; those still without a first
 *     token then count as failed (timed out)
 * @param seeds seeds; each gives a different request stream, the same for every policy
 * @param sheddableFraction share of requests whose objective allows shedding (default 0)
 * @param scrape how stale policies' metrics are, how late scrapes arrive and how often they fail
 * @param world step noise, stragglers and restarts of the simulated pods (default {@link
 *     Imperfections#REALISTIC}; {@code {base: clean}} for the deterministic engine)
 * @param cleanWorld true replaces {@code world} with the clean one and turns scrape lag and
 *     failures off (default false); a variant can turn it on, not off
 * @param slo service levels
 * @param quick the short version
 * @param variants variants run as scenarios of their own, or null
 * @param production how the gateway is deployed and what clients send (picker replicas, streamed
 *     share, prompt text)
 * @param contextTokens the served model's context length; a request whose prompt and answer exceed
 *     it is cut and counted. Null: the model's own (131,072 for Llama-3.1), lowered to what the
 *     smallest pod's KV cache holds, as vLLM requires ({@code ServedContext})
 * @param trace a request trace replayed instead of {@code workload} and {@code arrival}, or null
 * @param rateReqPerS the absolute request rate at which the pods-needed suite sizes the fleet, or
 *     null for its default ({@code PodsNeededSuite}: half the fleet's capacity on plain
 *     ShareGPT-like traffic)
 * @param split {@code train}: in the declared training set, on which defaults may be tuned (with a
 *     full run recorded); {@code test} (the default, so a scenario nobody declared is held out):
 *     used only to check claims. Reports mark every figure with it; variants inherit it
 */
public record Scenario(
    String name,
    String description,
    String model,
    List<PodGroup> fleet,
    List<WorkloadPart> workload,
    LoraMix lora,
    ArrivalSpec arrival,
    List<Double> loads,
    Double headlineLoad,
    Double durationSeconds,
    Double headlineDurationSeconds,
    Double warmupSeconds,
    Double drainSeconds,
    List<Long> seeds,
    Double sheddableFraction,
    ScrapeSpec scrape,
    Imperfections world,
    Boolean cleanWorld,
    Slo slo,
    QuickSpec quick,
    List<Variant> variants,
    ProductionSpec production,
    Integer contextTokens,
    TraceSpec trace,
    Double rateReqPerS,
    String split) {

  /** Scenarios the default policy may be tuned on ({@code split: train}). */
  public static final String TRAIN = "train";

  /** Every other scenario: held out, for checking claims only (the default). */
  public static final String TEST = "test";

  public Scenario {
    if (name == null || !name.matches("[a-z0-9][a-z0-9.-]*")) {
      throw new IllegalArgumentException(
          "name: '" + name + "' (expected lower-case letters, digits, '.' and '-')");
    }
    description = description == null ? "" : description;
    model = model == null ? "meta-llama/Llama-3.1-8B-Instruct" : model;
    fleet = List.copyOf(Check.required("fleet", fleet));
    if (fleet.isEmpty()) {
      throw new IllegalArgumentException("fleet: [] (expected at least one pod group)");
    }
    if (trace != null) {
      if (workload != null && !workload.isEmpty()) {
        throw new IllegalArgumentException(
            "workload: " + workload.size() + " parts (expected none: the trace is the workload)");
      }
      workload = List.of();
    } else {
      workload = List.copyOf(Check.required("workload", workload));
      if (workload.isEmpty()) {
        throw new IllegalArgumentException("workload: [] (expected at least one part)");
      }
    }
    if (contextTokens != null) {
      Check.atLeast("contextTokens", contextTokens, 0, 256);
    }
    if (rateReqPerS != null) {
      Check.positive("rateReqPerS", rateReqPerS, 1);
    }
    split = split == null ? TEST : split;
    if (!split.equals(TRAIN) && !split.equals(TEST)) {
      throw new IllegalArgumentException(
          "split: '" + split + "' (expected '" + TRAIN + "' or '" + TEST + "')");
    }
    arrival = arrival == null ? ArrivalSpec.poisson() : arrival;
    loads = checkLoads("loads", Check.required("loads", loads));
    headlineLoad = Check.positive("headlineLoad", headlineLoad, 0.5);
    durationSeconds = Check.positive("durationSeconds", durationSeconds, 120.0);
    if (headlineDurationSeconds != null) {
      Check.positive("headlineDurationSeconds", headlineDurationSeconds, 1);
    }
    warmupSeconds = Check.nonNegative("warmupSeconds", warmupSeconds, 20.0);
    if (warmupSeconds >= durationSeconds) {
      throw new IllegalArgumentException(
          "warmupSeconds: "
              + warmupSeconds
              + " (expected < durationSeconds "
              + durationSeconds
              + ")");
    }
    drainSeconds = Check.positive("drainSeconds", drainSeconds, 300.0);
    seeds = List.copyOf(seeds == null ? List.of(1L) : seeds);
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("seeds: [] (expected at least one seed)");
    }
    sheddableFraction = Check.fraction("sheddableFraction", sheddableFraction, 0.0);
    scrape = scrape == null ? ScrapeSpec.defaults() : scrape;
    world = world == null ? Imperfections.REALISTIC : world;
    cleanWorld = cleanWorld != null && cleanWorld;
    if (cleanWorld) {
      world = Imperfections.CLEAN;
      scrape = scrape.withoutFaults();
    }
    slo = slo == null ? Slo.defaults() : slo;
    variants = variants == null ? null : List.copyOf(variants);
    production = production == null ? ProductionSpec.defaults() : production;
  }

  private static List<Double> checkLoads(String field, List<Double> loads) {
    if (loads.isEmpty()) {
      throw new IllegalArgumentException(field + ": [] (expected at least one load)");
    }
    for (int i = 0; i < loads.size(); i++) {
      Check.positive(field + "[" + i + "]", loads.get(i), 1);
      if (i > 0 && loads.get(i) <= loads.get(i - 1)) {
        throw new IllegalArgumentException(
            field + "[" + i + "]: " + loads.get(i) + " (expected ascending loads)");
      }
    }
    return List.copyOf(loads);
  }

  /** The scenarios to run: this one, or one per variant. */
  public List<Scenario> instances() {
    if (variants == null || variants.isEmpty()) {
      return List.of(this);
    }
    List<Scenario> out = new ArrayList<>();
    for (int i = 0; i < variants.size(); i++) {
      Variant v = variants.get(i);
      try {
        out.add(
            new Scenario(
                name + "-" + v.name(),
                v.description() != null ? v.description() : description,
                model,
                v.fleet() != null ? v.fleet() : fleet,
                v.workload() != null ? v.workload() : workload,
                v.lora() != null ? v.lora() : lora,
                v.arrival() != null ? v.arrival() : arrival,
                v.loads() != null ? v.loads() : loads,
                headlineLoad,
                durationSeconds,
                headlineDurationSeconds,
                warmupSeconds,
                drainSeconds,
                seeds,
                sheddableFraction,
                scrape,
                v.world() != null ? v.world() : world,
                cleanWorld || Boolean.TRUE.equals(v.cleanWorld()),
                slo,
                quick,
                null,
                production,
                contextTokens,
                trace,
                v.rateReqPerS() != null ? v.rateReqPerS() : rateReqPerS,
                split));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("variants[" + i + "]." + e.getMessage(), e);
      }
    }
    return out;
  }

  /** The short version of this scenario ({@code --quick}). */
  public Scenario quickVersion() {
    QuickSpec q = quick != null ? quick : new QuickSpec(null, null, null);
    return new Scenario(
        name,
        description,
        model,
        fleet,
        workload,
        lora,
        arrival,
        q.loads() != null ? q.loads() : loads,
        headlineLoad,
        q.durationSeconds(),
        null,
        Math.min(q.warmupSeconds(), q.durationSeconds() / 2),
        Math.min(drainSeconds, 120.0),
        List.of(seeds.get(0)),
        sheddableFraction,
        scrape,
        world,
        cleanWorld,
        slo,
        null,
        variants,
        production,
        contextTokens,
        trace,
        rateReqPerS,
        split);
  }

  /**
   * This scenario, and its variants, in the clean world: no step noise, stragglers or restarts,
   * scrape answers that arrive at once and never fail (the same schedule and phases). For
   * comparisons with the default, imperfect world.
   */
  public Scenario inCleanWorld() {
    return new Scenario(
        name,
        description,
        model,
        fleet,
        workload,
        lora,
        arrival,
        loads,
        headlineLoad,
        durationSeconds,
        headlineDurationSeconds,
        warmupSeconds,
        drainSeconds,
        seeds,
        sheddableFraction,
        scrape,
        world,
        true,
        slo,
        quick,
        variants,
        production,
        contextTokens,
        trace,
        rateReqPerS,
        split);
  }

  /**
   * A copy named {@code newName} whose warm-up (the unmeasured start of each run) is {@code
   * newWarmupSeconds}, the measured window as long as before: to see how a figure depends on what
   * the policies learned before measuring starts.
   */
  public Scenario withWarmupSeconds(String newName, double newWarmupSeconds) {
    return retimed(newName, newWarmupSeconds, 1);
  }

  /** A copy with other seeds. */
  public Scenario withSeeds(List<Long> newSeeds) {
    return copy(name, durationSeconds, headlineDurationSeconds, newSeeds, production);
  }

  /** This scenario as run at {@code load}: the headline load may run longer. */
  public Scenario forLoad(double load) {
    if (headlineDurationSeconds == null || Math.abs(load - headline()) > 1e-9) {
      return this;
    }
    return copy(name, headlineDurationSeconds, null, seeds, production);
  }

  /**
   * A copy whose measured window (the run after the warm-up) is {@code factor} times as long, the
   * warm-up and drain unchanged: to see whether a figure depends on the run's length.
   */
  public Scenario withMeasuredWindowTimes(double factor) {
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("factor: " + factor + " (expected a finite number > 0)");
    }
    return retimed(name, warmupSeconds, factor);
  }

  /**
   * A copy with warm-up {@code newWarmup} and each measured window {@code factor} times as long.
   */
  private Scenario retimed(String newName, double newWarmup, double factor) {
    return copy(
        newName,
        fleet,
        workload,
        lora,
        newWarmup,
        newWarmup + factor * (durationSeconds - warmupSeconds),
        headlineDurationSeconds == null
            ? null
            : newWarmup + factor * (headlineDurationSeconds - warmupSeconds),
        seeds,
        production,
        variants);
  }

  /** A copy named {@code newName} with another gateway deployment. */
  public Scenario withProduction(String newName, ProductionSpec newProduction) {
    return copy(newName, durationSeconds, headlineDurationSeconds, seeds, newProduction);
  }

  /** A copy with these fields changed and every other one kept. */
  private Scenario copy(
      String newName,
      Double newDurationSeconds,
      Double newHeadlineDurationSeconds,
      List<Long> newSeeds,
      ProductionSpec newProduction) {
    return copy(
        newName,
        fleet,
        workload,
        lora,
        warmupSeconds,
        newDurationSeconds,
        newHeadlineDurationSeconds,
        newSeeds,
        newProduction,
        variants);
  }

  /** A copy named {@code newName} on another fleet, without variants, every other field kept. */
  public Scenario withFleet(String newName, List<PodGroup> newFleet) {
    return copy(
        newName,
        newFleet,
        workload,
        lora,
        warmupSeconds,
        durationSeconds,
        headlineDurationSeconds,
        seeds,
        production,
        null);
  }

  /**
   * This scenario's fleet and settings with plain traffic: ShareGPT-like base-model requests, no
   * shared prefixes and no adapters, so a single pod's saturation rate does not depend on cache or
   * adapter-slot thrashing.
   */
  public Scenario withPlainTraffic() {
    if (trace != null) {
      throw new IllegalArgumentException(name + ": a trace scenario has no plain-traffic version");
    }
    return copy(
        name + "-plain",
        fleet,
        List.of(WorkloadPart.of("sharegpt")),
        null,
        warmupSeconds,
        durationSeconds,
        headlineDurationSeconds,
        seeds,
        production,
        null);
  }

  private Scenario copy(
      String newName,
      List<PodGroup> newFleet,
      List<WorkloadPart> newWorkload,
      LoraMix newLora,
      Double newWarmupSeconds,
      Double newDurationSeconds,
      Double newHeadlineDurationSeconds,
      List<Long> newSeeds,
      ProductionSpec newProduction,
      List<Variant> newVariants) {
    return new Scenario(
        newName,
        description,
        model,
        newFleet,
        newWorkload,
        newLora,
        arrival,
        loads,
        headlineLoad,
        newDurationSeconds,
        newHeadlineDurationSeconds,
        newWarmupSeconds,
        drainSeconds,
        newSeeds,
        sheddableFraction,
        scrape,
        world,
        cleanWorld,
        slo,
        quick,
        newVariants,
        newProduction,
        contextTokens,
        trace,
        rateReqPerS,
        split);
  }

  /** The ladder load closest to {@link #headlineLoad}. */
  public double headline() {
    double best = loads.get(0);
    for (double l : loads) {
      if (Math.abs(l - headlineLoad) < Math.abs(best - headlineLoad)) {
        best = l;
      }
    }
    return best;
  }

  /** Total pods. */
  public int pods() {
    int n = 0;
    for (PodGroup g : fleet) {
      n += g.count();
    }
    return n;
  }
}
