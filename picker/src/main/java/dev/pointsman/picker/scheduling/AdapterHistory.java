package dev.pointsman.picker.scheduling;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The LoRA adapters the picker recently sent to each endpoint. vLLM's {@code lora_requests_info}
 * lists only adapters with running or waiting requests, not the ones loaded and idle in GPU memory;
 * a model server keeps its most recently used adapters loaded, so the last few distinct adapters
 * the picker sent an endpoint are the best evidence of what is still resident there.
 *
 * <p>Thread-safe; bounded: per endpoint it remembers at most {@code perEndpoint} adapters.
 */
public final class AdapterHistory {
  private final int perEndpoint;
  private final ConcurrentHashMap<String, Recent> byEndpoint = new ConcurrentHashMap<>();

  public AdapterHistory(int perEndpoint) {
    if (perEndpoint < 1) {
      throw new IllegalArgumentException("perEndpoint: " + perEndpoint + " (expected >= 1)");
    }
    this.perEndpoint = perEndpoint;
  }

  /**
   * Distinct adapters remembered per endpoint by default: about a model server's CPU adapter cache
   * (vLLM's {@code --max-cpu-loras} is commonly a few times {@code --max-loras}).
   */
  public static final int DEFAULT_DEPTH = 16;

  public AdapterHistory() {
    this(DEFAULT_DEPTH);
  }

  /** Records that {@code adapter} was sent to {@code address}. */
  public void record(String address, String adapter) {
    if (adapter == null) {
      return;
    }
    Recent r = byEndpoint.computeIfAbsent(address, a -> new Recent(perEndpoint));
    synchronized (r) {
      r.put(adapter, Boolean.TRUE);
    }
  }

  /** The {@code n} adapters most recently sent to {@code address}, most recent last. */
  public Set<String> mostRecent(String address, int n) {
    Recent r = byEndpoint.get(address);
    if (r == null || n <= 0) {
      return Set.of();
    }
    synchronized (r) {
      Set<String> out = new HashSet<>();
      int skip = Math.max(0, r.size() - n);
      for (String a : r.keySet()) {
        if (skip-- <= 0) {
          out.add(a);
        }
      }
      return out;
    }
  }

  /**
   * The adapters remembered per endpoint, least recently sent first: recording them in order
   * rebuilds the same history (a late replica's snapshot).
   */
  public Map<String, List<String>> export() {
    Map<String, List<String>> out = new HashMap<>();
    for (Map.Entry<String, Recent> e : byEndpoint.entrySet()) {
      synchronized (e.getValue()) {
        out.put(e.getKey(), List.copyOf(e.getValue().keySet()));
      }
    }
    return out;
  }

  /** Forgets endpoints that left every pool. */
  public void retain(Collection<String> addresses) {
    Set<String> keep = new HashSet<>(addresses);
    byEndpoint.keySet().removeIf(a -> !keep.contains(a));
  }

  /** Forgets the adapters sent to {@code address} (its engine unloaded them). */
  public void forget(String address) {
    byEndpoint.remove(address);
  }

  private static final class Recent extends LinkedHashMap<String, Boolean> {
    private final int capacity;

    Recent(int capacity) {
      super(16, 0.75f, true);
      this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > capacity;
    }
  }
}
