package dev.pointsman.bench.routing.fleet;

import dev.pointsman.bench.routing.policy.FleetView;
import dev.pointsman.bench.routing.policy.Route;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.bench.routing.workload.RequestStream;
import dev.pointsman.fleet.choice.Choice;
import dev.pointsman.fleet.choice.Chooser;
import dev.pointsman.fleet.config.ClusterConfig;
import dev.pointsman.fleet.health.ClusterHealth;
import dev.pointsman.fleet.routing.Cluster;
import dev.pointsman.fleet.routing.ClusterOptions;
import dev.pointsman.fleet.summary.Received;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.picker.summary.ClusterSummary;
import dev.pointsman.picker.summary.HotPrefixes;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.RequestResult;
import dev.pointsman.sim.engine.SimRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * One policy across the fleet's clusters on one seeded request stream, in virtual time. Each client
 * region has its own fleet tier (its own summaries, health and counts, as a fleet tier deployed per
 * region would): a request is decided there at its arrival, reaches the chosen cluster half a round
 * trip later, is routed there by the cluster's production picker, and its first token reaches the
 * client half a round trip after the engine makes it. Each cluster's picker makes a summary every
 * interval (the production {@link dev.pointsman.picker.summary.SummaryBuilder}) that reaches each
 * region's fleet tier half a round trip later; the fleet's {@link ClusterHealth} hears of it then,
 * and of each request's outcome when the answer (or the failure) gets back. Every policy gets the
 * same summaries and health; only the choice differs. Deterministic for the same inputs.
 */
final class FleetRun {
  /** How a cluster is chosen. */
  enum Policy {
    /**
     * The fleet tier's own rule ({@link Chooser}, {@link ClusterOptions}), as shipped, with the
     * scenario's TPOT objective as the fleet's {@code sloTpotMillis}.
     */
    FLEET("fleet"),
    /** The same rule on time to first token alone (no TPOT objective configured). */
    FLEET_TTFT_ONLY("fleet-ttft-only"),
    /**
     * The same rule naming no fallback: a request sent to a cluster that refuses it, or does not
     * answer the connection, fails (the fleet tier before it named fallbacks).
     */
    FLEET_NO_RETRY("fleet-no-retry"),
    /** The same rule told no prefix: no cross-cluster affinity. */
    FLEET_NO_AFFINITY("fleet-no-affinity"),
    /** The nearest open cluster by round trip; ties at random. */
    NEAREST("nearest"),
    /** Open clusters in turn, per region. */
    ROUND_ROBIN("round-robin");

    final String label;

    Policy(String label) {
      this.label = label;
    }
  }

  /** How often busy pods are counted and the drain is checked. */
  static final double METER_MS = 50;

  private static final double SPILL_AT = 0.8;

  /** The fallbacks each fleet choice names: the fleet tier's default ({@code fallbacks: 1}). */
  static final int FALLBACKS = 1;

  /**
   * How long the data plane waits for a connection that nothing answers before it resends the
   * request to the next fallback: the fleet Envoy's {@code connect_timeout} to the cluster gateways
   * ({@code deploy/envoy-fleet/envoy.yaml}). A refused connection is known after one round trip.
   */
  static final double CONNECT_TIMEOUT_MS = 2000;

  private final FleetSetup setup;
  private final Policy policy;
  private final long seed;
  private final PriorityQueue<Event> queue = new PriorityQueue<>();
  private long sequence;
  private List<BenchRequest> stream;
  private ClientRequests clients;
  private int[] regionOf;
  private int[] clusterOf;
  private int[] podOf;
  private double[] firstMs;
  private double[] finishMs;
  private int[] cached;
  private BenchRequest[] atCluster;
  private Fate[] fate;
  private int[][] fallbacksOf;
  private double[] sentMs;
  private boolean[] resent;
  private final List<SimCluster> clusters = new ArrayList<>();
  private boolean[] lost;
  private double[] busyGpuMs;
  private ClusterHealth[][] health;
  private Received[][] received;
  private List<List<Cluster>> tiers;
  private int[] turn;
  private double drainedAtMs = Double.NaN;
  private final Chooser chooser = new Chooser(SPILL_AT, FALLBACKS);
  private SplittableRandom draws;

  /** What became of a request that did not simply run to its end. */
  enum Fate {
    SERVED,
    /** The fleet tier had no cluster for it (503 / 429). */
    REJECTED,
    /** The cluster's picker refused it, or the pod did. */
    REFUSED,
    /** It reached a cluster that was gone: never started. */
    LOST_UNSTARTED,
    /** It was running (or queued in an engine) when its cluster went away, or its pod restarted. */
    LOST_IN_FLIGHT
  }

  private record Event(double at, long seq, Runnable action) implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      int c = Double.compare(at, o.at);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  FleetRun(FleetSetup setup, Policy policy, long seed) {
    this.setup = setup;
    this.policy = policy;
    this.seed = seed;
  }

  /** Runs it and returns what each request met. */
  FleetOutcomes run() {
    stream =
        RequestStream.generate(setup.workload(), setup.ratePerSecond(), setup.durationMs(), seed);
    clients = ClientRequests.of(setup.workload());
    int n = stream.size();
    regionOf = new int[n];
    clusterOf = new int[n];
    podOf = new int[n];
    firstMs = new double[n];
    finishMs = new double[n];
    cached = new int[n];
    atCluster = new BenchRequest[n];
    fate = new Fate[n];
    fallbacksOf = new int[n][];
    sentMs = new double[n];
    resent = new boolean[n];
    Arrays.fill(fallbacksOf, new int[0]);
    Arrays.fill(clusterOf, -1);
    Arrays.fill(podOf, -1);
    Arrays.fill(firstMs, Double.NaN);
    Arrays.fill(finishMs, Double.NaN);
    Arrays.fill(fate, Fate.SERVED);
    SplittableRandom regions = new SplittableRandom(seed ^ 0x5245474L);
    for (int i = 0; i < n; i++) {
      regionOf[i] = region(regions.nextDouble());
    }
    draws = new SplittableRandom(seed ^ 0xD4A3L);
    int k = setup.clusters().size();
    int r = setup.regions().size();
    lost = new boolean[k];
    busyGpuMs = new double[k];
    turn = new int[r];
    for (int c = 0; c < k; c++) {
      clusters.add(
          new SimCluster(
              setup.clusters().get(c),
              c,
              setup.workload(),
              clients,
              listener(c),
              seed,
              setup.summaryIntervalMs()));
    }
    health = new ClusterHealth[r][k];
    received = new Received[r][k];
    tiers = new ArrayList<>();
    for (int region = 0; region < r; region++) {
      List<Cluster> tier = new ArrayList<>();
      for (int c = 0; c < k; c++) {
        health[region][c] = new ClusterHealth(setup.failover());
        int rr = region;
        int cc = c;
        tier.add(new Cluster(config(c), health[region][c], () -> received[rr][cc]));
      }
      tiers.add(tier);
    }
    double end = setup.durationMs() + setup.drainMs();
    for (int i = 0; i < n; i++) {
      int idx = i;
      at(stream.get(i).arrivalMs(), () -> arrive(idx));
    }
    SplittableRandom phases = new SplittableRandom(seed ^ 0x5355L);
    for (int c = 0; c < k; c++) {
      int cc = c;
      at(phases.nextDouble() * setup.summaryIntervalMs(), () -> summarise(cc, end));
    }
    for (double t = 0; t <= end; t += METER_MS) {
      double tt = t;
      at(t, () -> meter(tt));
    }
    if (setup.lostRegion() != null) {
      at(setup.lossAtMs(), () -> lose(end));
    }
    while (!queue.isEmpty() && queue.peek().at() <= end) {
      Event e = queue.poll();
      for (SimCluster c : clusters) {
        c.runUntil(e.at());
      }
      e.action().run();
    }
    for (SimCluster c : clusters) {
      c.runUntil(end);
    }
    return new FleetOutcomes(
        setup,
        policy.label,
        seed,
        stream,
        regionOf,
        clusterOf,
        firstMs,
        finishMs,
        cached,
        fate,
        resent,
        busyGpuMs,
        drainedAtMs);
  }

  private int region(double u) {
    double sum = 0;
    for (int i = 0; i < setup.regionShares().size(); i++) {
      sum += setup.regionShares().get(i);
      if (u < sum) {
        return i;
      }
    }
    return setup.regionShares().size() - 1;
  }

  private ClusterConfig config(int c) {
    ClusterSpec spec = setup.clusters().get(c);
    java.util.Map<String, Double> rtt = new java.util.HashMap<>();
    for (int region = 0; region < setup.regions().size(); region++) {
      rtt.put(setup.regions().get(region), setup.rtt(region, c));
    }
    String host = "10.1." + c + ".1";
    return new ClusterConfig(
        spec.name(),
        host + ":8443",
        host + ":9004",
        null,
        spec.tier(),
        spec.pricePerGpuHour(),
        rtt,
        spec.region());
  }

  private void at(double timeMs, Runnable action) {
    queue.add(new Event(timeMs, sequence++, action));
  }

  private static long nanos(double ms) {
    return (long) (ms * 1_000_000);
  }

  private double now() {
    return clusters.get(0).engines.now();
  }

  // --- the fleet tier

  private void arrive(int i) {
    BenchRequest req = stream.get(i);
    int region = regionOf[i];
    double now = req.arrivalMs();
    int c = choose(i, req, region, now);
    if (c < 0) {
      fate[i] = Fate.REJECTED;
      return;
    }
    send(i, c, now);
  }

  /** Request {@code i} leaves its region's data plane for cluster {@code c} at {@code now}. */
  private void send(int i, int c, double now) {
    clusterOf[i] = c;
    sentMs[i] = now;
    at(now + setup.rtt(regionOf[i], c) / 2, () -> reach(i, c));
  }

  private int choose(int i, BenchRequest req, int region, double now) {
    int k = setup.clusters().size();
    List<Integer> open = new ArrayList<>();
    for (int c = 0; c < k; c++) {
      if (health[region][c].share(nanos(now)) > 0) {
        open.add(c);
      }
    }
    double draw = draws.nextDouble();
    return switch (policy) {
      case FLEET, FLEET_NO_RETRY -> fleetChoice(i, req, region, now, draw, true);
      case FLEET_TTFT_ONLY -> fleetChoice(i, req, region, now, draw, true, Double.NaN);
      case FLEET_NO_AFFINITY -> fleetChoice(i, req, region, now, draw, false);
      case NEAREST -> {
        if (open.isEmpty()) {
          yield -1;
        }
        double best = open.stream().mapToDouble(c -> setup.rtt(region, c)).min().orElseThrow();
        List<Integer> nearest = open.stream().filter(c -> setup.rtt(region, c) == best).toList();
        yield nearest.get((int) (draw * nearest.size()));
      }
      case ROUND_ROBIN -> open.isEmpty() ? -1 : open.get(turn[region]++ % open.size());
    };
  }

  private int fleetChoice(
      int i, BenchRequest req, int region, double now, double draw, boolean affinity) {
    return fleetChoice(i, req, region, now, draw, affinity, setup.sloTpotMs());
  }

  private int fleetChoice(
      int i,
      BenchRequest req,
      int region,
      double now,
      double draw,
      boolean affinity,
      double tpotSloMs) {
    ParsedRequest body = clients.parsed(req);
    long[] chain = affinity ? HotPrefixes.chain(body.model(), body.promptPrefix()) : new long[0];
    Choice choice =
        chooser.choose(
            ClusterOptions.of(
                tiers.get(region), body.model(), setup.regions().get(region), chain, nanos(now)),
            setup.sloTtftMs(),
            tpotSloMs,
            req.sheddable(),
            draw);
    if (!(choice instanceof Choice.Chosen chosen)) {
      return -1;
    }
    if (policy != Policy.FLEET_NO_RETRY) {
      fallbacksOf[i] = chosen.fallbacks().stream().mapToInt(o -> index(o.cluster())).toArray();
    }
    int c = index(chosen.option().cluster());
    if (received[region][c] != null) {
      received[region][c].sent().incrementAndGet();
    }
    return c;
  }

  private int index(String cluster) {
    for (int c = 0; c < setup.clusters().size(); c++) {
      if (setup.clusters().get(c).name().equals(cluster)) {
        return c;
      }
    }
    throw new IllegalStateException("chosen: " + cluster + " (not a cluster)");
  }

  /** Request {@code i}'s outcome reaches its region's fleet tier half a round trip from now. */
  private void report(int i, boolean failed, double nowMs) {
    int region = regionOf[i];
    int c = clusterOf[i];
    if (lost[c] && setup.silentLoss()) {
      return; // a partition: no reset, no answer, nothing reaches the fleet tier
    }
    double back = nowMs + setup.rtt(region, c) / 2;
    at(back, () -> health[region][c].outcome(failed, nanos(back)));
  }

  private void summarise(int c, double end) {
    double now = now();
    if (!lost[c]) {
      ClusterSummary s = clusters.get(c).summary();
      for (int region = 0; region < setup.regions().size(); region++) {
        int rr = region;
        double arrives = now + setup.rtt(region, c) / 2;
        at(
            arrives,
            () -> {
              received[rr][c] = Received.accept(s.cluster(), s);
              health[rr][c].summaryReceived(nanos(arrives));
            });
      }
    }
    if (now + setup.summaryIntervalMs() <= end) {
      at(now + setup.summaryIntervalMs(), () -> summarise(c, end));
    }
  }

  // --- the clusters

  private void reach(int i, int c) {
    BenchRequest req = stream.get(i);
    SimCluster cluster = clusters.get(c);
    if (lost[c]) {
      if (!resend(i, c)) {
        fate[i] = Fate.LOST_UNSTARTED;
        report(i, true, now());
      }
      return;
    }
    double now = now();
    BenchRequest shifted =
        new BenchRequest(
            req.sim().at(now),
            req.kind(),
            req.sheddable(),
            req.streamed(),
            req.cut(),
            req.tenant(),
            req.priority());
    atCluster[i] = shifted;
    Route route = cluster.gateway.route(shifted);
    if (route.outcome() != Route.Outcome.ROUTED) {
      fate[i] = Fate.REFUSED;
      report(i, true, now());
      return;
    }
    ParsedRequest body = clients.parsed(req);
    cluster.hot.record(FleetView.POOL, body.model(), body.promptPrefix());
    try {
      cluster.engines.submit(shifted.sim(), route.pod());
      podOf[i] = route.pod();
    } catch (IllegalArgumentException e) {
      fate[i] = Fate.REFUSED; // the pod cannot hold it, or is restarting
      cluster.gateway.onFailed(shifted, route.pod());
      report(i, true, now);
    }
  }

  /**
   * Request {@code i} met lost cluster {@code c} before it started: the data plane in front resends
   * it to the next fallback the fleet named, once the connection is refused (a round trip after it
   * was sent) or, in a partition, once the connect timeout is over. The fleet tier hears then that
   * {@code c} refused it (the served-by report of the answer; counted at once here). False when no
   * fallback is left.
   */
  private boolean resend(int i, int c) {
    int[] left = fallbacksOf[i];
    if (left.length == 0) {
      return false;
    }
    fallbacksOf[i] = Arrays.copyOfRange(left, 1, left.length);
    int region = regionOf[i];
    double noticed = sentMs[i] + (setup.silentLoss() ? CONNECT_TIMEOUT_MS : setup.rtt(region, c));
    at(
        noticed,
        () -> {
          health[region][c].outcome(true, nanos(noticed));
          resent[i] = true;
          send(i, left[0], noticed);
        });
    return true;
  }

  private EngineListener listener(int c) {
    return new EngineListener() {
      @Override
      public void onFirstToken(int pod, SimRequest request, double timeMs) {
        int i = (int) request.id();
        firstMs[i] = timeMs;
        clusters.get(c).gateway.onFirstToken(atCluster[i], pod);
        report(i, false, timeMs);
      }

      @Override
      public void onFinish(RequestResult result) {
        int i = (int) result.request().id();
        finishMs[i] = result.finishMs();
        cached[i] = result.cachedTokens();
        clusters.get(c).gateway.onFinish(atCluster[i], result.pod());
      }

      @Override
      public void onFailed(int pod, SimRequest request, double timeMs) {
        int i = (int) request.id();
        fate[i] = Fate.LOST_IN_FLIGHT; // the pod restarted
        clusters.get(c).gateway.onFailed(atCluster[i], pod);
        report(i, true, timeMs);
      }
    };
  }

  /**
   * The lost region's clusters stop: every request live there fails, its summaries stop, and each
   * fleet tier's reads of it time out one after another.
   */
  private void lose(double end) {
    double now = now();
    for (int c = 0; c < setup.clusters().size(); c++) {
      if (!setup.clusters().get(c).region().equals(setup.lostRegion())) {
        continue;
      }
      lost[c] = true;
      SimCluster cluster = clusters.get(c);
      for (int i = 0; i < stream.size(); i++) {
        if (clusterOf[i] == c
            && podOf[i] >= 0
            && fate[i] == Fate.SERVED
            && cluster.engines.abort(stream.get(i).id(), podOf[i])) {
          fate[i] = Fate.LOST_IN_FLIGHT;
          cluster.gateway.onFailed(atCluster[i], podOf[i]);
          report(i, true, now);
        }
      }
      for (int region = 0; region < setup.regions().size(); region++) {
        ClusterHealth h = health[region][c];
        for (double t = now + setup.summaryTimeoutMs(); t <= end; t += setup.summaryTimeoutMs()) {
          double tt = t;
          at(t, () -> h.summaryFailed(nanos(tt)));
        }
      }
    }
  }

  private boolean lostAny() {
    for (boolean l : lost) {
      if (l) {
        return true;
      }
    }
    return false;
  }

  private void meter(double t) {
    if (t >= setup.warmupMs()) {
      for (int c = 0; c < clusters.size(); c++) {
        SimCluster cluster = clusters.get(c);
        for (int pod = 0; pod < cluster.engines.size(); pod++) {
          if (!lost[c] && !cluster.engines.pod(pod).isIdle()) {
            busyGpuMs[c] += METER_MS;
          }
        }
      }
    }
    if (setup.lostRegion() != null && t >= setup.lossAtMs() && Double.isNaN(drainedAtMs)) {
      boolean drained = lostAny();
      for (int region = 0; region < setup.regions().size(); region++) {
        for (int c = 0; c < clusters.size(); c++) {
          drained &= !lost[c] || health[region][c].share(nanos(t)) == 0;
        }
      }
      if (drained) {
        drainedAtMs = t;
      }
    }
  }
}
