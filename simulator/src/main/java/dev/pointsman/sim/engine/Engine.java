package dev.pointsman.sim.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * One simulated vLLM engine, driven by an external clock: callers {@link #submit} requests and
 * {@link #advanceTo} a time; the engine reports events to its {@link EngineListener}. Pure: no
 * threads, no wall clock; deterministic for the same calls. Not thread-safe: one thread drives it.
 * Times are milliseconds on the driver's clock.
 *
 * <p>In an imperfect world ({@link Imperfections}) each step's duration is multiplied by seeded
 * noise and by a straggler episode's slowdown, and the engine restarts now and then: every pending,
 * waiting and running request is lost (reported by {@link EngineListener#onFailed}, never
 * re-queued: a restarted vLLM process keeps no queue, its clients see the connection reset), the KV
 * and prefix cache and the GPU-resident adapters are emptied, and {@link #submit} refuses requests
 * until the restart period ends. Counters carry on across a restart.
 */
public final class Engine {
  private final EngineConfig config;
  private final int pod;
  private final EngineListener listener;
  private final Disturbances world;
  private Scheduler sched;
  private final PriorityQueue<Seq> pending;
  private final Map<Long, Seq> live;
  private final Map<String, Long> identities;
  private double now;
  private double stepEndMs = Double.POSITIVE_INFINITY;
  private long order;
  private int restarts;
  private double upAtMs = Double.NEGATIVE_INFINITY;
  private long lost;

  /** An idle engine at time 0; {@code pod} is reported in events. */
  public Engine(EngineConfig config, int pod, EngineListener listener) {
    this(config, pod, listener, Imperfections.CLEAN, 0);
  }

  /**
   * An idle engine at time 0 in the imperfect {@code world}, its draws seeded by {@code seed} and
   * {@code pod}.
   */
  public Engine(
      EngineConfig config, int pod, EngineListener listener, Imperfections world, long seed) {
    this(
        config,
        pod,
        listener,
        new Scheduler(config),
        new HashMap<>(),
        new Disturbances(world, seed, pod));
  }

  private Engine(
      EngineConfig config,
      int pod,
      EngineListener listener,
      Scheduler sched,
      Map<Long, Seq> live,
      Disturbances world) {
    this.config = config;
    this.world = world;
    this.pod = pod;
    this.listener = listener;
    this.sched = sched;
    this.live = live;
    this.pending =
        new PriorityQueue<>(
            Comparator.comparingDouble((Seq s) -> s.readyMs).thenComparingLong(s -> s.order));
    this.identities = new HashMap<>();
  }

  /** The configuration. */
  public EngineConfig config() {
    return config;
  }

  /** The engine's current time. */
  public double now() {
    return now;
  }

  /**
   * Accepts {@code r}; it enters the queue at {@code max(now, arrival + apiOverhead)}.
   *
   * @throws IllegalArgumentException if its id is live, it can never fit in the KV cache, it names
   *     an adapter on an engine without adapter slots, or the engine is restarting
   */
  public void submit(SimRequest r) {
    if (Math.max(now, r.arrivalMs()) < upAtMs) {
      throw new IllegalArgumentException(
          "request " + r.id() + ": pod restarting until " + upAtMs + " ms (expected a live pod)");
    }
    long need = (long) r.promptTokens() + r.outputTokens();
    if (need > config.gpu().kvTokens()) {
      throw new IllegalArgumentException(
          "request "
              + r.id()
              + ": "
              + need
              + " tokens (expected <= KV capacity "
              + config.gpu().kvTokens()
              + ")");
    }
    if (!r.adapter().isEmpty() && config.maxLoras() == 0) {
      throw new IllegalArgumentException(
          "request " + r.id() + ": adapter " + r.adapter() + " (expected none: maxLoras is 0)");
    }
    long identity =
        identities.computeIfAbsent(r.adapter(), a -> BlockHashes.identity(config.model(), a));
    long[] hashes =
        BlockHashes.of(
            identity, r.prompt(), r.outputContentId(), r.outputTokens(), config.gpu().blockSize());
    Seq s = new Seq(r, hashes, Math.max(now, r.arrivalMs() + config.apiOverheadMs()), order++);
    if (live.putIfAbsent(r.id(), s) != null) {
      throw new IllegalArgumentException("request " + r.id() + ": id already live");
    }
    pending.add(s);
  }

  /**
   * How many of {@code r}'s prompt tokens the prefix cache holds now, in whole blocks and keeping
   * one token to compute, as admission would reuse them; nothing changes. What an engine's KV
   * events let a router know.
   */
  public int cachedPromptTokens(SimRequest r) {
    long[] hashes = promptBlockHashes(r);
    Seq probe = new Seq(r, hashes, now, -1);
    return sched.kv.cachedPrefixBlocks(probe) * config.gpu().blockSize();
  }

  /**
   * How many of {@code r}'s prompt tokens, after those {@link #cachedPromptTokens} counts, the CPU
   * tier holds in a row, in whole blocks: what admission would load rather than compute; 0 without
   * offloading. Nothing changes.
   */
  public int offloadedPromptTokens(SimRequest r) {
    if (!config.offload().enabled()) {
      return 0; // no tier: nothing to hash the prompt for
    }
    Seq probe = new Seq(r, promptBlockHashes(r), now, -1);
    int hits = sched.kv.cachedPrefixBlocks(probe);
    return sched.kv.offloadedBlocks(probe, hits) * config.gpu().blockSize();
  }

  /** Blocks in the KV cache's CPU tier now; 0 without offloading. */
  public int offloadedBlocks() {
    return sched.kv.offloaded();
  }

  /**
   * The content hashes of {@code r}'s full prompt blocks as this engine hashes them (its model, the
   * request's adapter, its block size): the blocks its prefix cache and KV events name.
   */
  public long[] promptBlockHashes(SimRequest r) {
    long identity =
        identities.computeIfAbsent(r.adapter(), a -> BlockHashes.identity(config.model(), a));
    return BlockHashes.of(identity, r.prompt(), r.outputContentId(), 0, config.gpu().blockSize());
  }

  /** Aborts a live request and frees its blocks; returns false if it is not live. */
  public boolean abort(long requestId) {
    Seq s = live.remove(requestId);
    if (s == null) {
      return false;
    }
    s.done = true;
    if (!pending.remove(s)) {
      sched.running.remove(s);
      sched.waiting.remove(s);
      sched.kv.release(s);
      sched.lora.release(s.adapter());
    }
    sched.stats.aborted++;
    return true;
  }

  /** Time of the next internal event, or +infinity when idle. */
  public double nextEventTime() {
    double t = Math.min(stepEndMs, sched.lora.loadEndMs());
    if (!live.isEmpty()) {
      // an idle engine's restart is no event: advanceTo applies it when time passes it
      t = Math.min(t, world.restart(restarts).startMs());
    }
    return pending.isEmpty() ? t : Math.min(t, pending.peek().readyMs);
  }

  /** Processes every event up to and including {@code timeMs}. */
  public void advanceTo(double timeMs) {
    while (nextEventTime() <= timeMs) {
      processNext();
    }
    while (world.restart(restarts).startMs() <= timeMs) {
      restart(world.restart(restarts).startMs());
    }
    now = Math.max(now, timeMs);
  }

  /** Processes all events at the next event time; false if there are none. */
  public boolean processNext() {
    double t = nextEventTime();
    if (t == Double.POSITIVE_INFINITY) {
      return false;
    }
    now = Math.max(now, t);
    if (world.restart(restarts).startMs() <= t) {
      restart(t);
      return true;
    }
    while (!pending.isEmpty() && pending.peek().readyMs <= t) {
      sched.enqueue(pending.poll());
    }
    sched.lora.completeLoad(t);
    if (stepEndMs <= t) {
      stepEndMs = Double.POSITIVE_INFINITY;
      new StepCompletion(sched, pod, listener, live).complete(now);
    }
    sched.lora.startLoad(now);
    if (stepEndMs == Double.POSITIVE_INFINITY) {
      double d = sched.schedule();
      stepEndMs =
          d < 0 ? Double.POSITIVE_INFINITY : now + d * world.stepFactor(sched.stats.steps, now);
    }
    return true;
  }

  /**
   * Loses every live request, empties the caches and makes the pod unavailable for the restart
   * period.
   */
  private void restart(double t) {
    Disturbances.Episode e = world.restart(restarts++);
    upAtMs = e.endMs();
    List<Seq> gone = new ArrayList<>(live.values());
    gone.sort(Comparator.comparingLong(s -> s.order));
    live.clear();
    pending.clear();
    sched = sched.restarted();
    stepEndMs = Double.POSITIVE_INFINITY;
    for (Seq s : gone) {
      s.done = true;
      lost++;
      listener.onFailed(pod, s.request, t);
    }
  }

  /** Tells {@code listener} of this engine's KV-cache events, across restarts; copies do not. */
  public void listenToKvCache(KvEventListener listener) {
    sched.kv.listen(listener);
  }

  /** Content hashes of the blocks in the prefix cache now. */
  public long[] cachedBlockHashes() {
    return sched.kv.cachedHashes();
  }

  /** Content hashes of the blocks in the KV cache's CPU tier now; none without offloading. */
  public long[] offloadedBlockHashes() {
    return sched.kv.offloadedHashes();
  }

  /** Whether the engine takes requests now (false while it restarts). */
  public boolean isUp() {
    return now >= upAtMs;
  }

  /**
   * Whether the engine is, was or will be out for a restart at {@code timeMs}: its restarts are
   * fixed by its seed, whatever it is asked to do, so any time may be asked.
   */
  public boolean restartingAt(double timeMs) {
    for (int i = 0; ; i++) {
      Disturbances.Episode e = world.restart(i);
      if (e.startMs() > timeMs) {
        return false;
      }
      if (timeMs < e.endMs()) {
        return true;
      }
    }
  }

  /** Restarts so far. */
  public int restarts() {
    return restarts;
  }

  /** Requests lost to restarts so far. */
  public long lostToRestarts() {
    return lost;
  }

  /** The slowdown of a straggler episode at the engine's current time, 1 when there is none. */
  public double stragglerSlowdown() {
    return world.slowdownAt(now);
  }

  /** Whether no request is pending, waiting or running. */
  public boolean isIdle() {
    return live.isEmpty();
  }

  /** The observable state now. */
  public PodSnapshot snapshot() {
    Set<String> runningAdapters = new HashSet<>();
    Set<String> waitingAdapters = new HashSet<>();
    long waitingTokens = 0;
    for (Seq s : sched.running) {
      addAdapter(runningAdapters, s);
    }
    for (Seq s : sched.waiting) {
      addAdapter(waitingAdapters, s);
      waitingTokens += s.numTokens();
    }
    return new PodSnapshot(
        now,
        sched.waiting.size(),
        sched.running.size(),
        waitingTokens,
        sched.kv.used(),
        sched.kv.total(),
        runningAdapters,
        waitingAdapters,
        sched.lora.resident(),
        sched.stats.snapshot(sched.lora.loads()));
  }

  /**
   * An independent copy of this engine's exact state that reports to {@code listener}. Costs O(KV
   * blocks + live requests): for an H100 profile (28,000 blocks) about 1.4 MB of array copies, well
   * under a millisecond.
   */
  public Engine copy(EngineListener listener) {
    Map<Seq, Seq> copies = Scheduler.identityMap();
    Map<Long, Seq> liveCopy = new HashMap<>();
    for (Seq s : live.values()) {
      Seq c = s.copy();
      copies.put(s, c);
      liveCopy.put(s.request.id(), c);
    }
    Engine e = new Engine(config, pod, listener, sched.copy(copies), liveCopy, world.copy());
    pending.forEach(s -> e.pending.add(copies.get(s)));
    e.now = now;
    e.stepEndMs = stepEndMs;
    e.order = order;
    e.restarts = restarts;
    e.upAtMs = upAtMs;
    e.lost = lost;
    return e;
  }

  private static void addAdapter(Set<String> set, Seq s) {
    if (!s.adapter().isEmpty()) {
      set.add(s.adapter());
    }
  }
}
