package dev.pointsman.sim.engine;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * LoRA adapter residency of one engine: {@code maxLoras} GPU slots and a CPU cache, both LRU. Loads
 * run one at a time, in order of first demand; an adapter with live (waiting or running) requests
 * is never evicted. Not thread-safe.
 */
final class LoraManager {
  private final int gpuSlots;
  private final int cpuSlots;
  private final double warmMs;
  private final double coldMs;
  private final LinkedHashMap<String, Boolean> gpu;
  private final LinkedHashMap<String, Boolean> cpu;
  private final Map<String, Integer> live;
  private final ArrayDeque<String> demand;
  private String loading;
  private double loadEndMs = Double.POSITIVE_INFINITY;
  private long loads;

  LoraManager(EngineConfig c) {
    this(c.maxLoras(), c.maxCpuLoras(), c.loraLoadMs(), c.loraColdLoadMs());
  }

  private LoraManager(int gpuSlots, int cpuSlots, double warmMs, double coldMs) {
    this.gpuSlots = gpuSlots;
    this.cpuSlots = cpuSlots;
    this.warmMs = warmMs;
    this.coldMs = coldMs;
    gpu = new LinkedHashMap<>(16, 0.75f, true);
    cpu = new LinkedHashMap<>(16, 0.75f, true);
    live = new HashMap<>();
    demand = new ArrayDeque<>();
  }

  LoraManager copy() {
    LoraManager m = new LoraManager(gpuSlots, cpuSlots, warmMs, coldMs);
    m.gpu.putAll(gpu);
    m.cpu.putAll(cpu);
    m.live.putAll(live);
    m.demand.addAll(demand);
    m.loading = loading;
    m.loadEndMs = loadEndMs;
    m.loads = loads;
    return m;
  }

  /** The adapters of a restarted engine: none loaded, none cached; the load count carries on. */
  LoraManager restarted() {
    LoraManager m = new LoraManager(gpuSlots, cpuSlots, warmMs, coldMs);
    m.loads = loads;
    return m;
  }

  /** Whether requests for {@code adapter} can run now; touches its LRU position. */
  boolean isResident(String adapter) {
    return adapter.isEmpty() || gpu.get(adapter) != null;
  }

  /** A request for {@code adapter} became live. */
  void acquire(String adapter) {
    if (adapter.isEmpty()) {
      return;
    }
    live.merge(adapter, 1, Integer::sum);
    if (!gpu.containsKey(adapter) && !adapter.equals(loading) && !demand.contains(adapter)) {
      demand.add(adapter);
    }
  }

  /** A request for {@code adapter} finished or was aborted. */
  void release(String adapter) {
    if (!adapter.isEmpty()) {
      live.computeIfPresent(adapter, (k, v) -> v == 1 ? null : v - 1);
    }
  }

  double loadEndMs() {
    return loadEndMs;
  }

  long loads() {
    return loads;
  }

  Set<String> resident() {
    return Set.copyOf(gpu.keySet());
  }

  /** Completes the load in progress if it ends at or before {@code nowMs}. */
  void completeLoad(double nowMs) {
    if (loading == null || loadEndMs > nowMs) {
      return;
    }
    gpu.put(loading, Boolean.TRUE);
    cpu.put(loading, Boolean.TRUE);
    if (cpu.size() > cpuSlots) {
      cpu.remove(cpu.keySet().iterator().next());
    }
    loads++;
    loading = null;
    loadEndMs = Double.POSITIVE_INFINITY;
  }

  /** Starts the next wanted load if none is running and a slot is free or evictable. */
  void startLoad(double nowMs) {
    while (loading == null && !demand.isEmpty()) {
      String next = demand.peekFirst();
      if (gpu.containsKey(next) || !live.containsKey(next)) {
        demand.pollFirst();
        continue;
      }
      if (gpu.size() >= gpuSlots && !evictIdle()) {
        return;
      }
      demand.pollFirst();
      loading = next;
      loadEndMs = nowMs + (cpu.containsKey(next) ? warmMs : coldMs);
    }
  }

  private boolean evictIdle() {
    for (String a : gpu.keySet()) {
      if (!live.containsKey(a)) {
        gpu.remove(a);
        return true;
      }
    }
    return false;
  }
}
