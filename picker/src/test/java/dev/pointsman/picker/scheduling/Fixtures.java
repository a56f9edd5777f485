package dev.pointsman.picker.scheduling;

import dev.pointsman.picker.scheduling.latency.AdapterLoadModel;
import dev.pointsman.picker.scheduling.latency.LatencyModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/** Builders for scheduling tests. Public so that plugin and prefix tests can use them. */
public final class Fixtures {
  public static final String MODEL = "llama-3-8b";
  private static final String[] GPUS = {null, "H100-80", "A100-80", "L4", "A10G"};
  private static final String[] ADAPTERS = {"a", "b", "c", "d", "e"};

  private Fixtures() {}

  /** Metrics with no LoRA information and unknown capacity. */
  public static EndpointMetrics metrics(int waiting, int running, double kv) {
    return new EndpointMetrics(waiting, running, kv, -1, Set.of(), Set.of(), -1, Double.NaN, 0L);
  }

  public static EndpointMetrics kv(double usage, long capacityTokens) {
    return new EndpointMetrics(0, 0, usage, capacityTokens, Set.of(), Set.of(), -1, Double.NaN, 0L);
  }

  public static EndpointMetrics lora(Set<String> running, Set<String> waiting, int maxLoras) {
    return new EndpointMetrics(0, 0, 0.0, -1, running, waiting, maxLoras, Double.NaN, 0L);
  }

  public static Endpoint endpoint(String address, String gpu) {
    return new Endpoint(address, "pool", gpu == null ? Map.of() : Map.of("gpu", gpu));
  }

  public static Candidate candidate(String address, EndpointMetrics m) {
    return candidate(address, null, m, InFlightTracker.Load.NONE);
  }

  public static Candidate candidate(
      String address, String gpu, EndpointMetrics m, InFlightTracker.Load load) {
    Endpoint e = endpoint(address, gpu);
    return new Candidate(new EndpointState(e, m, true), load, SpeedProfile.of(e));
  }

  /** A candidate with an explicit speed profile, for arithmetic that must not follow the priors. */
  public static Candidate withProfile(
      String address, SpeedProfile profile, EndpointMetrics m, InFlightTracker.Load load) {
    return new Candidate(new EndpointState(endpoint(address, null), m, true), load, profile);
  }

  /** Pending work the picker itself put on an endpoint since its last scrape. */
  public static InFlightTracker.Load pending(int requests, long tokens) {
    return new InFlightTracker.Load(requests, tokens, requests, tokens);
  }

  /** A cycle state with a learned latency model and prefix matches already computed. */
  public static CycleState cycle(long[] blocks, int[] matches, LatencyModel model) {
    CycleState s = new CycleState(0L, blocks, model);
    s.prefixMatches(matches);
    return s;
  }

  /**
   * As {@link #cycle(long[], int[])}, with the picker's accounting of its requests in flight and
   * its prefix index (which prompts ended where).
   */
  public static CycleState cycle(
      long[] blocks,
      int[] matches,
      InFlightTracker inFlight,
      dev.pointsman.picker.scheduling.prefix.PrefixIndex index) {
    CycleState s = new CycleState(0L, blocks, null, null, null, inFlight, null, null);
    s.prefixMatches(matches);
    s.prefixIndex(index);
    return s;
  }

  /** A cycle state whose prefix matches are already computed (as the scheduler does). */
  public static CycleState cycle(long[] blocks, int[] matches) {
    CycleState s = new CycleState(0L, blocks);
    s.prefixMatches(matches);
    return s;
  }

  /**
   * A cycle state as the scheduler builds it once it has history: random adapters recently sent to,
   * and live or loading on, each candidate; learned adapter-load prices and latency fits.
   */
  public static CycleState learnedCycle(
      SplittableRandom r, List<Candidate> candidates, long[] blocks, int[] matches) {
    InFlightTracker inFlight = new InFlightTracker();
    AdapterHistory history = new AdapterHistory();
    AdapterLoadModel loads = new AdapterLoadModel();
    LatencyModel latency = new LatencyModel();
    for (Candidate c : candidates) {
      for (int k = r.nextInt(6); k > 0; k--) {
        String adapter = ADAPTERS[r.nextInt(ADAPTERS.length)];
        history.record(c.address(), adapter);
        if (r.nextBoolean()) {
          inFlight.assign(c.address(), 100, 50, adapter, r.nextBoolean());
        }
      }
      LoraState state = LoraState.values()[r.nextInt(LoraState.values().length)];
      loads.observe(c.address(), state, r.nextInt(3), r.nextDouble(-1, 5));
      latency.observe(c.address(), r.nextDouble(0, 2), r.nextDouble(0, 3));
    }
    QueuedWork queued = new QueuedWork();
    if (!r.nextBoolean()) {
      double meanQueued = r.nextDouble(0, 2000);
      for (int i = 0; i < QueuedWork.WARM_UP; i++) {
        queued.add("elsewhere", meanQueued); // known pool-wide, no candidate's own yet
      }
    }
    CycleState s = new CycleState(0L, blocks, latency, history, queued, inFlight, loads, null);
    s.prefixMatches(matches);
    return s;
  }

  public static SchedulingRequest request(String adapter, String prefix, int tokens) {
    return new SchedulingRequest(
        "r", adapter == null ? MODEL : adapter, adapter, prefix, tokens, -1, false, null);
  }

  /** A random candidate set: mixed GPUs, queues, batches, KV, adapters and pending load. */
  public static List<Candidate> randomCandidates(SplittableRandom r, int n) {
    List<Candidate> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Set<String> running = new HashSet<>();
      Set<String> waiting = new HashSet<>();
      for (int a = r.nextInt(4); a > 0; a--) {
        running.add(ADAPTERS[r.nextInt(ADAPTERS.length)]);
      }
      if (r.nextBoolean()) {
        waiting.add(ADAPTERS[r.nextInt(ADAPTERS.length)]);
      }
      double kv = r.nextInt(10) == 0 ? Double.NaN : r.nextDouble(-0.1, 1.2);
      EndpointMetrics m =
          new EndpointMetrics(
              r.nextInt(50),
              r.nextInt(300),
              kv,
              r.nextBoolean() ? -1 : 1 + r.nextInt(500_000),
              running,
              waiting,
              r.nextInt(6) - 1,
              r.nextDouble(),
              r.nextLong());
      int pendingRequests = r.nextInt(5);
      InFlightTracker.Load load =
          pending(pendingRequests, pendingRequests * (long) r.nextInt(20_000));
      out.add(candidate("10.0.0." + i + ":8000", GPUS[r.nextInt(GPUS.length)], m, load));
    }
    return out;
  }

  /** Random prefix matches for {@code n} candidates against {@code blocks} prompt blocks. */
  public static int[] randomMatches(SplittableRandom r, int n, int blocks) {
    int[] m = new int[n];
    for (int i = 0; i < n; i++) {
      m[i] = r.nextInt(blocks + 1);
    }
    return m;
  }

  public static long[] randomBlocks(SplittableRandom r, int n) {
    long[] b = new long[n];
    for (int i = 0; i < n; i++) {
      b[i] = r.nextLong();
    }
    return b;
  }

  /** Text of {@code chars} random lowercase letters and spaces. */
  public static String text(SplittableRandom r, int chars) {
    StringBuilder sb = new StringBuilder(chars);
    for (int i = 0; i < chars; i++) {
      sb.append(r.nextInt(6) == 0 ? ' ' : (char) ('a' + r.nextInt(26)));
    }
    return sb.toString();
  }
}
