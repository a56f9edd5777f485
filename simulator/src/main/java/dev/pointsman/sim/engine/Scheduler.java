package dev.pointsman.sim.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * vLLM V1-style step scheduler: running requests first (decodes and unfinished chunked prefills),
 * preempting the newest running request when blocks run out; then, if nothing was preempted,
 * waiting requests first-come-first-served within the token budget and sequence cap, skipping those
 * whose adapter is not resident. With a CPU tier, a waiting request's blocks that follow its GPU
 * prefix hit and are found in the tier are loaded instead of computed, and the copy's time is added
 * to the step that admits it. Not thread-safe.
 */
final class Scheduler {
  final KvCache kv;
  final LoraManager lora;
  final ArrayList<Seq> running = new ArrayList<>();
  final ArrayDeque<Seq> waiting = new ArrayDeque<>();
  final ArrayList<Seq> batch = new ArrayList<>();
  final Stats stats;
  private final GpuProfile gpu;
  private final ArrayList<Seq> skipped = new ArrayList<>();
  private final String[] adapters;
  private final double loadMsPerToken;
  private int budget;
  private long loadTokens;
  private long prefillTokens;
  private long contextTokens;
  private long decodeContextTokens;
  private long prefillPairs;
  private int decodes;

  Scheduler(EngineConfig config) {
    this(
        config.gpu(),
        new KvCache(
            config.gpu().kvBlocks(),
            config.gpu().blockSize(),
            config.prefixCaching(),
            config.offload().cpuBlocks()),
        new LoraManager(config),
        new Stats(),
        config.offload().loadMsPerToken());
  }

  private Scheduler(
      GpuProfile gpu, KvCache kv, LoraManager lora, Stats stats, double loadMsPerToken) {
    this.gpu = gpu;
    this.loadMsPerToken = loadMsPerToken;
    this.kv = kv;
    this.lora = lora;
    this.stats = stats;
    this.adapters = new String[gpu.maxNumSeqs()];
  }

  /** A deep copy; {@code copies} maps each live original request state to its copy. */
  Scheduler copy(Map<Seq, Seq> copies) {
    Scheduler c = new Scheduler(gpu, kv.copy(), lora.copy(), stats.copy(), loadMsPerToken);
    running.forEach(s -> c.running.add(copies.get(s)));
    waiting.forEach(s -> c.waiting.add(copies.get(s)));
    batch.stream().filter(s -> !s.done).forEach(s -> c.batch.add(copies.get(s)));
    return c;
  }

  /** The scheduler of a restarted engine: empty queues and caches, the same counters. */
  Scheduler restarted() {
    return new Scheduler(gpu, kv.emptied(), lora.restarted(), stats, loadMsPerToken);
  }

  static Map<Seq, Seq> identityMap() {
    return new IdentityHashMap<>();
  }

  void enqueue(Seq s) {
    lora.acquire(s.adapter());
    waiting.addLast(s);
  }

  /** Plans the next step into {@link #batch}; returns its duration in ms, or -1 if empty. */
  double schedule() {
    batch.clear();
    budget = gpu.maxBatchedTokens();
    prefillTokens = 0;
    contextTokens = 0;
    decodeContextTokens = 0;
    prefillPairs = 0;
    decodes = 0;
    loadTokens = 0;
    if (!scheduleRunning()) {
      scheduleWaiting();
    }
    if (batch.isEmpty()) {
      return -1;
    }
    stats.steps++;
    return loadTokens * loadMsPerToken
        + gpu.costs()
            .stepMs(
                prefillTokens,
                decodes,
                contextTokens,
                decodeContextTokens,
                prefillPairs,
                batch.size(),
                distinctAdapters());
  }

  /** Schedules running requests; returns whether any was preempted. */
  private boolean scheduleRunning() {
    boolean preempted = false;
    for (int i = 0; i < running.size() && budget > 0; i++) {
      Seq s = running.get(i);
      int n = Math.min(s.numTokens() - s.computed, budget);
      boolean victimIsSelf = false;
      while (!victimIsSelf && !kv.grow(s, s.computed + n)) {
        Seq victim = running.remove(running.size() - 1);
        preempt(victim);
        preempted = true;
        victimIsSelf = victim == s;
      }
      if (victimIsSelf) {
        break;
      }
      take(s, n);
    }
    return preempted;
  }

  private void scheduleWaiting() {
    while (!waiting.isEmpty() && budget > 0 && running.size() < gpu.maxNumSeqs()) {
      Seq s = waiting.peekFirst();
      if (!lora.isResident(s.adapter())) {
        skipped.add(waiting.pollFirst());
        continue;
      }
      int hits = kv.cachedPrefixBlocks(s);
      int offloaded = kv.offloadedBlocks(s, hits);
      int cached = hits * gpu.blockSize();
      int loaded = offloaded * gpu.blockSize();
      int n = Math.min(s.numTokens() - cached - loaded, budget);
      if (!kv.admit(s, hits, cached + loaded + n)) {
        break;
      }
      waiting.pollFirst();
      if (offloaded > 0) {
        kv.loaded(s, hits, offloaded);
        loadTokens += loaded;
      }
      stats.prefixQueryTokens += s.numTokens();
      stats.prefixHitTokens += cached;
      stats.offloadHitTokens += loaded;
      if (s.cachedTokens < 0) {
        s.cachedTokens = cached + loaded;
      }
      s.computed = cached + loaded;
      running.add(s);
      take(s, n);
    }
    for (int i = skipped.size() - 1; i >= 0; i--) {
      waiting.addFirst(skipped.get(i));
    }
    skipped.clear();
  }

  private void take(Seq s, int n) {
    s.scheduled = n;
    batch.add(s);
    budget -= n;
    contextTokens += s.computed + n;
    if (n == 1 && s.generated > 0) {
      decodes++;
      decodeContextTokens += s.computed + 1;
    } else {
      prefillTokens += n;
      // causal attention: the i-th new token (1-based) attends to computed + i keys
      prefillPairs += (long) n * s.computed + (long) n * (n + 1) / 2;
    }
  }

  private void preempt(Seq victim) {
    kv.release(victim);
    victim.computed = 0;
    victim.scheduled = 0;
    victim.preemptions++;
    stats.preemptions++;
    waiting.addFirst(victim);
  }

  private int distinctAdapters() {
    int n = 0;
    for (Seq s : batch) {
      String a = s.adapter();
      if (a.isEmpty()) {
        continue;
      }
      int i = 0;
      while (i < n && !adapters[i].equals(a)) {
        i++;
      }
      if (i == n) {
        adapters[n++] = a;
      }
    }
    return n;
  }
}
