package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.picker.datastore.DatastoreConfig;
import dev.pointsman.picker.kvevents.KvBlockIndex;
import dev.pointsman.picker.kvevents.KvEvent;
import dev.pointsman.picker.scheduling.AdapterListing;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.SpeedProfile;
import dev.pointsman.sim.engine.BlockHashes;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.KvEventListener;
import dev.pointsman.sim.engine.PodSnapshot;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fleet as policies may see it: each pod's last scrape, converted to {@link EndpointMetrics}
 * exactly as the picker's vLLM scraper would (waiting, running, KV usage, capacity, running and
 * waiting adapters, max LoRAs, prefix hit rate since the previous scrape), the pod's address and
 * {@code gpu} label, the LoRA adapters each pod's {@code /v1/models} lists when the scenario
 * registers adapters on some pods only, and the request as the gateway reads it ({@link
 * ClientRequests}: the parsed body, its token estimate and prompt prefix). Each picker replica has
 * its own view, scraped on its own schedule. The exact cluster is reachable only through {@link
 * #exactClusterForLookahead()}.
 *
 * <p>A failed scrape keeps the pod's last metrics, as the picker's datastore does; after {@link
 * DatastoreConfig#DEFAULT}'s threshold of consecutive failures, or that long without a success, the
 * pod is unavailable in {@link #pool()} until a scrape succeeds again. Every pod starts available.
 */
public final class FleetView {
  /** The pool every bench endpoint belongs to. */
  public static final String POOL = "bench";

  private final List<EngineConfig> configs;
  private final ClientRequests requests;

  /**
   * How long a pod's readiness takes to reach the routers: the kubelet records that the engine's
   * container exited (or that its readiness probe passes again), the EndpointSlice controller
   * updates the slice, and the router's discovery applies it. Chosen, not measured: about two
   * seconds on a healthy cluster.
   */
  public static final double DISCOVERY_LAG_MS = 2000;

  private final VirtualCluster cluster;
  private final EndpointState[] states;
  private final List<Set<String>> registered;
  private final long[] lastQueries;
  private final long[] lastHits;
  private final int[] failures;
  private final double[] lastSuccessMs;
  private final double[] capacities;
  private PoolSnapshot pool;

  public FleetView(List<EngineConfig> configs, String baseModel, VirtualCluster cluster) {
    this(configs, baseModel, cluster, null);
  }

  /**
   * A view whose clients write the default text mix (prose, code, CJK) and name the adapters some
   * pod lists (none when {@code registered} is null).
   *
   * @param registered the adapters registered on each pod, or null when every pod serves every
   *     adapter
   */
  public FleetView(
      List<EngineConfig> configs,
      String baseModel,
      VirtualCluster cluster,
      List<Set<String>> registered) {
    this(
        configs,
        cluster,
        registered,
        new ClientRequests(baseModel, listed(registered), TextMix.defaults()));
  }

  /**
   * @param registered the adapters registered on each pod, or null when every pod serves every
   *     adapter
   * @param requests the requests as the gateway receives them (shared by every replica's view)
   */
  public FleetView(
      List<EngineConfig> configs,
      VirtualCluster cluster,
      List<Set<String>> registered,
      ClientRequests requests) {
    this(configs, cluster, registered, requests, null);
  }

  /**
   * @param registered the adapters registered on each pod, or null when every pod serves every
   *     adapter
   * @param requests the requests as the gateway receives them (shared by every replica's view)
   * @param capacities each pod's measured capacity in requests per second, what an operator knows
   *     when setting static weights; null when unknown (every pod 1)
   */
  public FleetView(
      List<EngineConfig> configs,
      VirtualCluster cluster,
      List<Set<String>> registered,
      ClientRequests requests,
      double[] capacities) {
    if (capacities != null && capacities.length != configs.size()) {
      throw new IllegalArgumentException(
          "capacities: " + capacities.length + " pods (expected " + configs.size() + ")");
    }
    if (registered != null && registered.size() != configs.size()) {
      throw new IllegalArgumentException(
          "registered: " + registered.size() + " pods (expected " + configs.size() + ")");
    }
    this.registered = registered == null ? null : List.copyOf(registered);
    this.configs = List.copyOf(configs);
    this.requests = requests;
    this.cluster = cluster;
    int n = configs.size();
    states = new EndpointState[n];
    lastQueries = new long[n];
    lastHits = new long[n];
    failures = new int[n];
    lastSuccessMs = new double[n];
    this.capacities = capacities == null ? filled(n) : capacities.clone();
    for (int i = 0; i < n; i++) {
      Endpoint e =
          new Endpoint(
              address(i), POOL, Map.of(SpeedProfile.GPU_LABEL, configs.get(i).gpu().name()));
      states[i] = new EndpointState(e, EndpointMetrics.UNKNOWN, true);
    }
  }

  /** Every adapter some pod lists (none when {@code registered} is null). */
  private static Set<String> listed(List<Set<String>> registered) {
    Set<String> all = new java.util.TreeSet<>();
    if (registered != null) {
      registered.forEach(all::addAll);
    }
    return all;
  }

  private static double[] filled(int n) {
    double[] out = new double[n];
    java.util.Arrays.fill(out, 1);
    return out;
  }

  public int size() {
    return states.length;
  }

  /**
   * Each pod's measured capacity (requests per second on the scenario's traffic, the bench's
   * calibration), or 1 each when unknown: what an operator sets static weights from.
   */
  public double[] capacities() {
    return capacities.clone();
  }

  /**
   * The prompt tokens of {@code r} that {@code pod}'s prefix cache holds now, exactly: what a
   * router that subscribes to the engines' KV events (Dynamo's KV router) knows, without the
   * events' delay.
   */
  public int cachedPromptTokensFromKvEvents(BenchRequest r, int pod) {
    return cluster.pod(pod).cachedPromptTokens(r.sim());
  }

  /**
   * The prompt tokens of {@code r} after those {@link #cachedPromptTokensFromKvEvents} counts that
   * {@code pod} holds in CPU memory (offloaded), exactly: what the engines' CPU-tier events tell a
   * router; 0 on pods that do not offload.
   */
  public int offloadedPromptTokensFromKvEvents(BenchRequest r, int pod) {
    return cluster.pod(pod).offloadedPromptTokens(r.sim());
  }

  /**
   * Tells {@code index} of every pod's KV-cache events as the engines publish them ({@code
   * BlockStored} with the blocks' token ids, {@code BlockRemoved}, {@code AllBlocksCleared}, across
   * restarts; for pods that offload, the CPU tier's stores without token ids and its removals):
   * what a picker subscribed to the engines' KV events learns, here at the moment the engine
   * changes its cache rather than the few milliseconds later its events arrive.
   */
  public void publishKvEvents(KvBlockIndex index) {
    for (int i = 0; i < size(); i++) {
      String address = address(i);
      cluster
          .pod(i)
          .listenToKvCache(
              new KvEventListener() {
                @Override
                public void stored(long parent, long hash, int blockSize) {
                  index.apply(
                      address,
                      List.of(
                          block(
                              parent,
                              hash,
                              BlockHashes.tokenIds(hash, blockSize),
                              blockSize,
                              null)));
                }

                @Override
                public void removed(long hash) {
                  index.apply(address, List.of(new KvEvent.BlockRemoved(new long[] {hash}, null)));
                }

                @Override
                public void offloaded(long parent, long hash, int blockSize) {
                  index.apply(
                      address, List.of(block(parent, hash, new int[0], blockSize, KvEvent.CPU)));
                }

                @Override
                public void offloadRemoved(long hash) {
                  index.apply(
                      address, List.of(new KvEvent.BlockRemoved(new long[] {hash}, KvEvent.CPU)));
                }

                @Override
                public void cleared() {
                  index.apply(address, List.of(new KvEvent.AllBlocksCleared()));
                }
              });
    }
  }

  /** One block stored on {@code medium} (null: the GPU), as an engine's event names it. */
  private static KvEvent.BlockStored block(
      long parent, long hash, int[] tokens, int blockSize, String medium) {
    return new KvEvent.BlockStored(
        new long[] {hash}, parent == 0 ? null : parent, tokens, blockSize, null, medium);
  }

  /**
   * The token ids of {@code r}'s prompt, its full blocks, as the served model's tokenizer makes
   * them: the tokens the engines cache and name in their KV events (the simulator derives a block's
   * tokens from its content hash). What the picker's tokenizer returns when a pool mounts the
   * model's {@code tokenizer.json}.
   *
   * @throws IllegalStateException when the pods differ in block size (the derived tokens would)
   */
  public int[] promptTokenIds(BenchRequest r) {
    int blockSize = configs.get(0).gpu().blockSize();
    for (EngineConfig c : configs) {
      if (c.gpu().blockSize() != blockSize) {
        throw new IllegalStateException(
            "pods with block sizes "
                + blockSize
                + " and "
                + c.gpu().blockSize()
                + " (expected one block size for the engines' tokens)");
      }
    }
    long[] hashes = cluster.pod(0).promptBlockHashes(r.sim());
    int[] out = new int[hashes.length * blockSize];
    for (int b = 0; b < hashes.length; b++) {
      System.arraycopy(
          BlockHashes.tokenIds(hashes[b], blockSize), 0, out, b * blockSize, blockSize);
    }
    return out;
  }

  public static String address(int pod) {
    return "10.0." + (pod / 250) + "." + (pod % 250 + 1) + ":8000";
  }

  public EngineConfig config(int pod) {
    return configs.get(pod);
  }

  public SpeedProfile speed(int pod) {
    return SpeedProfile.of(states[pod].endpoint());
  }

  /** Virtual time now, in ms. */
  public double nowMs() {
    return cluster.now();
  }

  /** Virtual time now, in ns: the scheduler's monotonic clock. */
  public long nowNanos() {
    return (long) (cluster.now() * 1_000_000);
  }

  /** Whether {@code pod} serves {@code r}: its adapter, if any, is registered there. */
  public boolean serves(int pod, BenchRequest r) {
    String adapter = r.adapterOrNull();
    return adapter == null || registered == null || registered.get(pod).contains(adapter);
  }

  /** The model name the gateway would resolve: the adapter, or the base model. */
  public String model(BenchRequest r) {
    return requests.model(r);
  }

  /** The prompt text the gateway keeps from the body (what the prefix hasher reads). */
  public String promptText(BenchRequest r) {
    return requests.promptPrefix(r);
  }

  /** The requests as the gateway receives them. */
  public ClientRequests requests() {
    return requests;
  }

  /** The last scrape of {@code pod}. */
  public EndpointMetrics metrics(int pod) {
    return states[pod].metrics();
  }

  /** Every endpoint with its last scrape, as the picker's datastore would publish it. */
  public PoolSnapshot pool() {
    for (int i = 0; i < states.length; i++) {
      boolean up = available(i);
      if (states[i].available() != up) {
        states[i] = new EndpointState(states[i].endpoint(), states[i].metrics(), up);
        pool = null;
      }
    }
    if (pool == null) {
      List<EndpointState> list = new ArrayList<>(states.length);
      for (EndpointState s : states) {
        list.add(s);
      }
      pool = new PoolSnapshot(POOL, list);
    }
    return pool;
  }

  /**
   * Whether the picker's datastore would offer {@code pod} now: listed among the pool's ready
   * endpoints ({@link #inEndpoints}: the picker watches pods and keeps the Ready ones), fewer
   * consecutive failed scrapes than its threshold, and a successful one within {@code
   * unavailableAfter}.
   */
  public boolean available(int pod) {
    DatastoreConfig d = DatastoreConfig.DEFAULT;
    return failures[pod] < d.failureThreshold()
        && nowMs() - lastSuccessMs[pod] <= d.unavailableAfter().toMillis()
        && inEndpoints(pod);
  }

  /**
   * Whether {@code pod} is among the ready endpoints a data plane knows of now: what Kubernetes
   * tells every router (Envoy through EDS, the picker through its pod watch, a router through its
   * service discovery). A pod out for a restart leaves the list {@link #DISCOVERY_LAG_MS} after it
   * went down and comes back the same time after it is up again.
   */
  public boolean inEndpoints(int pod) {
    return !cluster.restartingAt(pod, nowMs() - DISCOVERY_LAG_MS);
  }

  /**
   * The pods {@link #inEndpoints} now, in order; {@code null} when that is every pod (the common
   * case, so callers keep their all-pods path and its random draws).
   */
  public int[] endpointsIfSome() {
    int n = size();
    int listed = 0;
    for (int i = 0; i < n; i++) {
      if (inEndpoints(i)) {
        listed++;
      }
    }
    if (listed == n) {
      return null;
    }
    int[] out = new int[listed];
    for (int i = 0, k = 0; i < n; i++) {
      if (inEndpoints(i)) {
        out[k++] = i;
      }
    }
    return out;
  }

  /** A scrape of {@code pod} failed now: its last metrics stay. */
  public void scrapeFailed(int pod) {
    failures[pod]++;
  }

  /** Applies a scrape of {@code pod} taken now. */
  public void applyScrape(int pod, PodSnapshot s) {
    applyScrape(pod, s, nowMs());
  }

  /**
   * Applies, now, a scrape of {@code pod} that started at {@code takenAtMs} and saw {@code s}; its
   * metrics carry that start time, as the picker's scraper stamps them.
   */
  public void applyScrape(int pod, PodSnapshot s, double takenAtMs) {
    failures[pod] = 0;
    lastSuccessMs[pod] = nowMs();
    long queries = s.counters().prefixQueryTokens();
    long hits = s.counters().prefixHitTokens();
    long dq = queries - lastQueries[pod];
    double hitRate = dq > 0 ? (double) (hits - lastHits[pod]) / dq : Double.NaN;
    lastQueries[pod] = queries;
    lastHits[pod] = hits;
    EngineConfig c = configs.get(pod);
    EndpointMetrics m =
        new EndpointMetrics(
            s.waiting(),
            s.running(),
            s.kvUsage(),
            (long) s.totalBlocks() * c.gpu().blockSize(),
            s.runningAdapters(),
            s.waitingAdapters(),
            c.maxLoras(),
            hitRate,
            (long) (takenAtMs * 1_000_000),
            registered == null ? AdapterListing.UNKNOWN : AdapterListing.of(registered.get(pod)));
    states[pod] = new EndpointState(states[pod].endpoint(), m, true);
    pool = null;
  }

  /** The exact simulated cluster. Only the greedy lookahead may read it: real gateways cannot. */
  public VirtualCluster exactClusterForLookahead() {
    return cluster;
  }
}
