package dev.pointsman.sim.engine;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU tier of a KV cache with offloading, as vLLM's offloading connector keeps it ({@code
 * --kv-offloading-backend native}): every block that becomes full on the GPU is also stored in CPU
 * memory, least recently used first out when the tier is full; a prompt whose prefix the GPU no
 * longer holds loads the blocks that follow its GPU hit from here instead of computing them.
 * Content hashes only, in recency order.
 *
 * <p>A copy shares the map with the original until either side writes (a look-ahead copy that only
 * reads costs a pointer). Not thread-safe.
 */
final class OffloadTier {
  private final int capacity;
  private LinkedHashMap<Long, Boolean> blocks;
  private boolean shared;

  OffloadTier(int capacity) {
    this.capacity = capacity;
    this.blocks = lru(capacity);
  }

  private OffloadTier(OffloadTier o) {
    capacity = o.capacity;
    blocks = o.blocks;
    shared = true;
    o.shared = true;
  }

  OffloadTier copy() {
    return new OffloadTier(this);
  }

  int capacity() {
    return capacity;
  }

  int size() {
    return blocks.size();
  }

  /** The content hashes the tier holds, least recently used first. */
  long[] hashes() {
    return blocks.keySet().stream().mapToLong(Long::longValue).toArray();
  }

  /** Whether the tier holds {@code hash}; changes nothing. */
  boolean holds(long hash) {
    return blocks.containsKey(hash);
  }

  /**
   * Stores {@code hash} (or makes it the most recently used); tells {@code events} of a new block
   * and of the block it evicts, if any.
   */
  void store(long parent, long hash, int blockSize, KvEventListener events) {
    writable();
    if (blocks.get(hash) != null) {
      return; // the access moved it to the most recently used end
    }
    if (blocks.size() >= capacity) {
      Iterator<Map.Entry<Long, Boolean>> oldest = blocks.entrySet().iterator();
      long evicted = oldest.next().getKey();
      oldest.remove();
      events.offloadRemoved(evicted);
    }
    blocks.put(hash, Boolean.TRUE);
    events.offloaded(parent, hash, blockSize);
  }

  /** Marks {@code hash} as just used (its blocks were loaded back onto the GPU). */
  void touch(long hash) {
    writable();
    blocks.get(hash);
  }

  private void writable() {
    if (shared) {
      LinkedHashMap<Long, Boolean> own = lru(capacity);
      own.putAll(blocks);
      blocks = own;
      shared = false;
    }
  }

  private static LinkedHashMap<Long, Boolean> lru(int capacity) {
    return new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true);
  }
}
