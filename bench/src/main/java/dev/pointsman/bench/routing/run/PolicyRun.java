package dev.pointsman.bench.routing.run;

import dev.pointsman.bench.routing.policy.FleetView;
import dev.pointsman.bench.routing.policy.Gateway;
import dev.pointsman.bench.routing.policy.Route;
import dev.pointsman.bench.routing.scenario.FlowSpec;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.ScrapeSpec;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.RequestResult;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * One policy on one request stream, in virtual time: scrapes reach the policy every interval (each
 * pod at its own phase, for each picker replica on its own schedule, late or failing as the
 * scenario's {@link ScrapeFeed} says), each arrival is routed by the replica Envoy gives it on what
 * that replica can see, and the run ends after a drain period. The pods live in the scenario's
 * world (step noise, stragglers, restarts), drawn from the run's seed alone, so every policy meets
 * the same stragglers and restarts. Deterministic for the same inputs; no wall clock.
 */
public final class PolicyRun {
  /** Mixed into the run seed for the pods' world and for the scrape faults. */
  private static final long WORLD_SEED = 0x574F524C44L;

  private static final long SCRAPE_FAULT_SEED = 0x5343524150L;

  /**
   * While requests wait in flow control, the gateway pumps it this often (TTLs, and the releases
   * heard since: a release's pump runs at the next tick, at most this late).
   */
  static final double FLOW_TICK_MS = 5;

  private final Scenario scenario;
  private final Capacity capacity;
  private final String policyName;
  private final double load;
  private final long seed;
  private final List<BenchRequest> stream;
  private final double[] firstMs;
  private final boolean[] lostInFlight;
  private final double[] finishMs;
  private final double[] sentMs;
  private final int[] podOf;
  private final int[] cached;
  private final double[] predicted;
  private final double[] predictedTpot;
  private final Route.Outcome[] outcome;
  private final int[] resent;
  private final PriorityQueue<Resend> resends = new PriorityQueue<>();
  private long resendSeq;
  private final long[][] counters = new long[2][5];
  private VirtualCluster cluster;
  private List<FleetView> views;
  private Gateway policy;
  private boolean flowOn;

  private PolicyRun(
      Scenario scenario,
      Capacity capacity,
      String policyName,
      double load,
      long seed,
      List<BenchRequest> stream) {
    this.scenario = scenario;
    this.capacity = capacity;
    this.policyName = policyName;
    this.load = load;
    this.seed = seed;
    this.stream = stream;
    int n = stream.size();
    firstMs = new double[n];
    lostInFlight = new boolean[n];
    finishMs = new double[n];
    Arrays.fill(firstMs, Double.NaN);
    Arrays.fill(finishMs, Double.NaN);
    sentMs = new double[n];
    Arrays.fill(sentMs, Double.NaN);
    podOf = new int[n];
    Arrays.fill(podOf, -1);
    cached = new int[n];
    predicted = new double[n];
    Arrays.fill(predicted, Double.NaN);
    predictedTpot = new double[n];
    Arrays.fill(predictedTpot, Double.NaN);
    outcome = new Route.Outcome[n];
    resent = new int[n];
  }

  /** A request its router sends again at {@code atMs} after a refusal; ties in order of refusal. */
  private record Resend(double atMs, long seq, int idx) implements Comparable<Resend> {
    @Override
    public int compareTo(Resend o) {
      int c = Double.compare(atMs, o.atMs);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  /** The arrival rate of {@code load} on this fleet. */
  public static double rate(Capacity capacity, double load) {
    return load * capacity.fleetRequestsPerSecond();
  }

  /** Runs {@code policyName} at {@code load} on the stream of {@code seed}. */
  public static RunResult run(
      Scenario scenarioAtAnyLoad, Capacity capacity, String policyName, double load, long seed) {
    return run(scenarioAtAnyLoad, capacity, policyName, Map.of(), load, seed);
  }

  /** Runs {@code policyName}, which may be one of the operator-written {@code custom} policies. */
  public static RunResult run(
      Scenario scenarioAtAnyLoad,
      Capacity capacity,
      String policyName,
      Map<String, PolicyConfig> custom,
      double load,
      long seed) {
    Scenario scenario = scenarioAtAnyLoad.forLoad(load);
    double durationMs = scenario.durationSeconds() * 1000;
    List<BenchRequest> stream =
        dev.pointsman.bench.routing.workload.RequestStream.generate(
            scenario, rate(capacity, load), durationMs, seed);
    return new PolicyRun(scenario, capacity, policyName, load, seed, stream).execute(custom);
  }

  /**
   * As {@link #run(Scenario, Capacity, String, double, long)}, with TTFT by class of traffic
   * (tenant and priority; empty when the scenario declares neither).
   */
  public static FlowClasses.Classed runClassed(
      Scenario scenarioAtAnyLoad, Capacity capacity, String policyName, double load, long seed) {
    Scenario scenario = scenarioAtAnyLoad.forLoad(load);
    double durationMs = scenario.durationSeconds() * 1000;
    List<BenchRequest> stream =
        dev.pointsman.bench.routing.workload.RequestStream.generate(
            scenario, rate(capacity, load), durationMs, seed);
    RunResult result =
        new PolicyRun(scenario, capacity, policyName, load, seed, stream).execute(Map.of());
    return new FlowClasses.Classed(result, result.classes());
  }

  /** The run itself, executed, for tests of what happened to each request. */
  static PolicyRun executed(
      Scenario scenarioAtAnyLoad, Capacity capacity, String policyName, double load, long seed) {
    Scenario scenario = scenarioAtAnyLoad.forLoad(load);
    List<BenchRequest> stream =
        dev.pointsman.bench.routing.workload.RequestStream.generate(
            scenario, rate(capacity, load), scenario.durationSeconds() * 1000, seed);
    PolicyRun run = new PolicyRun(scenario, capacity, policyName, load, seed, stream);
    run.execute(Map.of());
    return run;
  }

  private RunResult execute(Map<String, PolicyConfig> custom) {
    List<EngineConfig> configs = Fleets.configs(scenario);
    cluster = new VirtualCluster(configs, listener(), scenario.world(), seed ^ WORLD_SEED);
    ClientRequests clients = ClientRequests.of(scenario);
    int replicas = scenario.production().pickerReplicas();
    views = new ArrayList<>(replicas);
    for (int k = 0; k < replicas; k++) {
      views.add(
          new FleetView(
              configs,
              cluster,
              scenario.lora() == null ? null : scenario.lora().placement(configs.size()),
              clients,
              capacity.perPod()));
    }
    policy =
        Gateway.create(
            policyName,
            views,
            new SplittableRandom(seed * 31 + 7),
            new SplittableRandom(seed ^ 0x4E9L),
            custom,
            scenario.production().envoys(),
            scenario.production().sharing());
    FlowSpec flow = scenario.production().flowControl();
    flowOn =
        flow.enabled()
            && policy.enableFlowControl(
                new FlowLimits(
                    flow.maxQueued(),
                    Long.MAX_VALUE / 4,
                    flow.ttlMillis() * 1_000_000L,
                    flow.sheddableHeadroom(),
                    flow.tenantShareLoad()),
                flow.budgets());
    ScrapeSpec spec = scenario.scrape();
    // each replica scrapes every pod itself: its own phases, lags and failures (replica 0 draws
    // exactly what a single picker would)
    List<ScrapeFeed> feeds = new ArrayList<>(replicas);
    for (int k = 0; k < replicas; k++) {
      long mix = k * 0x9E3779B97F4A7C15L;
      feeds.add(
          new ScrapeFeed(
              spec,
              configs.size(),
              new SplittableRandom(seed ^ 0x5C2A9EL ^ mix),
              new SplittableRandom(seed ^ SCRAPE_FAULT_SEED ^ mix)));
    }
    double warmupMs = scenario.warmupSeconds() * 1000;
    double durationMs = scenario.durationSeconds() * 1000;
    double[] marks = {warmupMs, durationMs};
    int mark = 0;
    for (BenchRequest r : stream) {
      double t = r.arrivalMs();
      mark = advance(t, feeds, marks, mark, false);
      cluster.runUntil(t);
      dispatch(r);
    }
    double endMs = durationMs + scenario.drainSeconds() * 1000;
    if (flowOn || !resends.isEmpty()) {
      // requests still waiting (in flow control, or to be sent again) need scrapes and ticks until
      // they leave (routed, or refused)
      mark = advance(endMs, feeds, marks, mark, true);
    }
    for (; mark < marks.length; mark++) {
      cluster.runUntil(marks[mark]);
      captureCounters(mark);
    }
    cluster.runUntil(endMs);
    for (int i = 0; i < outcome.length; i++) {
      if (outcome[i] == Route.Outcome.QUEUED) {
        outcome[i] = Route.Outcome.SHED; // still waiting at the end: never served
      }
    }
    return new Measurements(scenario, capacity, this).result();
  }

  /**
   * Runs scrapes, marks, resends and (with flow control, while requests wait) flow ticks due by
   * {@code t}, in time order; with {@code untilIdle} stops once nothing waits. Returns the next
   * mark.
   */
  private int advance(
      double t, List<ScrapeFeed> feeds, double[] marks, int mark, boolean untilIdle) {
    while (true) {
      if (untilIdle && policy.flowWaiting() == 0 && resends.isEmpty()) {
        return mark;
      }
      double resendAt = resends.isEmpty() ? Double.POSITIVE_INFINITY : resends.peek().atMs();
      int replica = nextFeed(feeds);
      double scrapeAt = feeds.get(replica).nextEventMs();
      double markAt = mark < marks.length ? marks[mark] : Double.POSITIVE_INFINITY;
      double tickAt =
          flowOn && policy.flowWaiting() > 0
              ? (Math.floor(cluster.now() / FLOW_TICK_MS) + 1) * FLOW_TICK_MS
              : Double.POSITIVE_INFINITY;
      if (Math.min(Math.min(scrapeAt, markAt), Math.min(tickAt, resendAt)) > t) {
        return mark;
      }
      if (resendAt < Math.min(Math.min(scrapeAt, markAt), tickAt)) {
        cluster.runUntil(resendAt);
        BenchRequest r = stream.get(resends.poll().idx());
        place(r, policy.resend(r), r.sim().at(cluster.now()));
      } else if (tickAt < Math.min(scrapeAt, markAt)) {
        cluster.runUntil(tickAt);
        pumpFlow();
      } else if (markAt <= scrapeAt) {
        cluster.runUntil(markAt);
        captureCounters(mark++);
      } else {
        cluster.runUntil(scrapeAt);
        int k = replica;
        feeds.get(k).fire(cluster, views.get(k), pod -> policy.onScrape(k, pod));
        if (flowOn) {
          pumpFlow();
        }
      }
    }
  }

  /** Routes (or refuses) what left flow control now; a routed one reaches its pod now. */
  private void pumpFlow() {
    for (Map.Entry<Long, Route> e : policy.pumpFlow().entrySet()) {
      BenchRequest r = stream.get((int) (long) e.getKey());
      place(r, e.getValue(), r.sim().at(cluster.now()));
    }
  }

  private void dispatch(BenchRequest r) {
    place(r, policy.route(r), r.sim());
  }

  /** Sends {@code r} (as {@code sim}: arriving at its pod now) where {@code route} says. */
  private void place(BenchRequest r, Route route, SimRequest sim) {
    int idx = (int) r.id();
    outcome[idx] = route.outcome();
    if (route.outcome() != Route.Outcome.ROUTED) {
      return;
    }
    if (!views.get(0).serves(route.pod(), r)) {
      // the pod does not list the adapter: the server answers 404
      outcome[idx] = Route.Outcome.FAILED;
      policy.onRefused(r, route.pod());
      return;
    }
    try {
      cluster.submit(sim, route.pod());
      sentMs[idx] = sim.arrivalMs();
      podOf[idx] = route.pod();
      predicted[idx] = route.predictedTtftMs();
      predictedTpot[idx] = route.predictedTpotMs();
    } catch (IllegalArgumentException e) {
      // the pod is restarting (connection refused: its router may send it again later, waiting
      // meanwhile, its TTFT running from its first arrival), or cannot hold it (a 400: final)
      double delay = Double.NaN;
      if (cluster.restartingAt(route.pod(), cluster.now())) {
        delay = policy.onConnectFailed(r, route.pod(), resent[idx]);
      } else {
        policy.onFailed(r, route.pod());
      }
      if (Double.isNaN(delay)) {
        outcome[idx] = Route.Outcome.FAILED;
      } else {
        resent[idx]++;
        outcome[idx] = Route.Outcome.QUEUED;
        resends.add(new Resend(cluster.now() + delay, resendSeq++, idx));
      }
    }
  }

  private EngineListener listener() {
    return new EngineListener() {
      @Override
      public void onFirstToken(int pod, SimRequest request, double timeMs) {
        int idx = (int) request.id();
        firstMs[idx] = timeMs;
        policy.onFirstToken(stream.get(idx), pod);
      }

      @Override
      public void onFinish(RequestResult result) {
        int idx = (int) result.request().id();
        finishMs[idx] = result.finishMs();
        cached[idx] = result.cachedTokens();
        policy.onFinish(stream.get(idx), result.pod());
      }

      @Override
      public void onFailed(int pod, SimRequest request, double timeMs) {
        // lost to a restart: the client saw the stream reset, and nobody resends it
        int idx = (int) request.id();
        outcome[idx] = Route.Outcome.FAILED;
        lostInFlight[idx] = true;
        policy.onFailed(stream.get(idx), pod);
      }
    };
  }

  /** The replica whose scrape feed has the earliest next event. */
  private static int nextFeed(List<ScrapeFeed> feeds) {
    int best = 0;
    for (int k = 1; k < feeds.size(); k++) {
      if (feeds.get(k).nextEventMs() < feeds.get(best).nextEventMs()) {
        best = k;
      }
    }
    return best;
  }

  private void captureCounters(int which) {
    long[] c = counters[which];
    for (int i = 0; i < cluster.size(); i++) {
      var k = cluster.snapshot(i).counters();
      c[0] += k.generationTokens();
      c[1] += k.preemptions();
      c[2] += k.loraLoads();
      c[3] += k.offloadHitTokens();
      c[4] += k.prefixQueryTokens();
    }
  }

  // Accessors for Measurements (same package).
  String policyName() {
    return policyName;
  }

  double load() {
    return load;
  }

  long seed() {
    return seed;
  }

  List<BenchRequest> stream() {
    return stream;
  }

  double firstMs(int i) {
    return firstMs[i];
  }

  /** When request {@code i} reached its pod (later than its arrival if it waited), or NaN. */
  double sentMs(int i) {
    return sentMs[i];
  }

  double finishMs(int i) {
    return finishMs[i];
  }

  int podOf(int i) {
    return podOf[i];
  }

  int cached(int i) {
    return cached[i];
  }

  double predicted(int i) {
    return predicted[i];
  }

  double predictedTpot(int i) {
    return predictedTpot[i];
  }

  Route.Outcome outcome(int i) {
    return outcome[i];
  }

  /** Whether request {@code i} was accepted by its pod and then lost when the pod restarted. */
  boolean lostInFlight(int i) {
    return lostInFlight[i];
  }

  long counterDelta(int k) {
    return counters[1][k] - counters[0][k];
  }

  int pods() {
    return cluster.size();
  }
}
