package dev.pointsman.picker.kvevents;

import dev.pointsman.picker.scheduling.Endpoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.ZContext;

/**
 * One {@link EndpointSubscriber} per endpoint of every pool whose KV events are on, following the
 * pools' membership: a new endpoint is subscribed, a removed one's thread and sockets are closed
 * and its index entries dropped. Thread-safe (membership changes are serialized).
 */
public final class KvEventSubscribers implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KvEventSubscribers.class);

  private final KvBlockIndex index;
  private final KvEventsObserver observer;
  private final LongSupplier nanoTime;
  private final ZContext context = new ZContext(1);
  private final Map<String, Map<String, EndpointSubscriber>> byPool = new HashMap<>();
  private boolean closed;

  public KvEventSubscribers(KvBlockIndex index, KvEventsObserver observer, LongSupplier nanoTime) {
    this.index = index;
    this.observer = observer;
    this.nanoTime = nanoTime;
  }

  public KvBlockIndex index() {
    return index;
  }

  /**
   * Subscribes to {@code endpoints} of {@code pool} (none when {@code settings} has events off) and
   * closes the subscriptions of the pool's endpoints not among them.
   */
  public synchronized void update(
      String pool, KvEventsSettings settings, List<Endpoint> endpoints) {
    if (closed) {
      return;
    }
    Map<String, EndpointSubscriber> current = byPool.computeIfAbsent(pool, p -> new HashMap<>());
    Set<String> keep = new HashSet<>();
    if (settings.enabled()) {
      for (Endpoint e : endpoints) {
        keep.add(e.address());
        if (!current.containsKey(e.address())) {
          try {
            current.put(
                e.address(),
                new EndpointSubscriber(
                        pool,
                        e.address(),
                        settings.pubUrl(e),
                        settings.replayUrl(e),
                        settings,
                        context,
                        index,
                        observer,
                        nanoTime)
                    .start());
          } catch (IllegalArgumentException bad) {
            observer.decodeError(pool, "endpoint");
            log.warn("kv events of pool {}: {}", pool, bad.getMessage());
          }
        }
      }
    }
    for (String address : new ArrayList<>(current.keySet())) {
      if (!keep.contains(address)) {
        current.remove(address).close();
        index.remove(address);
      }
    }
    if (current.isEmpty()) {
      byPool.remove(pool);
    }
  }

  /** Closes the subscriptions of pools not in {@code pools}. */
  public synchronized void retainPools(Set<String> pools) {
    for (String pool : new ArrayList<>(byPool.keySet())) {
      if (!pools.contains(pool)) {
        update(pool, KvEventsSettings.OFF, List.of());
      }
    }
  }

  /** Addresses subscribed to in {@code pool}. */
  public synchronized Set<String> subscribed(String pool) {
    return Set.copyOf(byPool.getOrDefault(pool, Map.of()).keySet());
  }

  /** Engine blocks indexed for {@code pool}'s endpoints, in GPU memory or in CPU memory. */
  public synchronized int blocks(String pool, boolean gpu) {
    int n = 0;
    for (String address : byPool.getOrDefault(pool, Map.of()).keySet()) {
      n += index.size(address, gpu);
    }
    return n;
  }

  /** Live subscriber threads, and sockets open in the shared context (for leak checks). */
  synchronized int[] liveThreadsAndSockets() {
    int threads = 0;
    for (Map<String, EndpointSubscriber> m : byPool.values()) {
      for (EndpointSubscriber s : m.values()) {
        threads += s.alive() ? 1 : 0;
      }
    }
    return new int[] {threads, context.getSockets().size()};
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    for (String pool : new ArrayList<>(byPool.keySet())) {
      update(pool, KvEventsSettings.OFF, List.of());
    }
    closed = true;
    context.close();
  }
}
