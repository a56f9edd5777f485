package dev.pointsman.picker.kvevents;

import dev.pointsman.picker.scheduling.prefix.BlockHolders;
import dev.pointsman.picker.scheduling.prefix.TokenBlockHasher;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongLinkedOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectLinkedOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongIterator;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * A precise index of which endpoint holds which KV block, built from the engines' own events. A
 * block is keyed by {@link TokenBlockHasher}: its parent's key and its token ids, so that a
 * request's token ids find it. Each endpoint maps the engine's hash of a block to that key, to
 * follow parents and evictions.
 *
 * <p>Bounded: at most {@code maxBlocksPerEndpoint} engine blocks per endpoint, plus a quarter of
 * that of recently evicted ones' keys (under 250 bytes per block in all, so the default 65,536
 * blocks cost under 16 MiB per endpoint); past it the oldest stored block is forgotten and counted
 * as an overflow (an engine never holds more blocks than its cache, so an overflow means missed
 * evictions or a bound set below the cache).
 *
 * <p>Thread-safe: one writer per endpoint (its subscriber) under that endpoint's lock, membership
 * changes under the same lock; {@link #match} locks the holders' stripes only. Block keys and
 * engine hashes are kept unboxed.
 */
public final class KvBlockIndex {

  private final int maxBlocksPerEndpoint;
  private final BlockHolders holders = new BlockHolders();
  private final ConcurrentHashMap<String, Held> byEndpoint = new ConcurrentHashMap<>();

  public KvBlockIndex(int maxBlocksPerEndpoint) {
    if (maxBlocksPerEndpoint < 1) {
      throw new IllegalArgumentException(
          "maxBlocksPerEndpoint: " + maxBlocksPerEndpoint + " (expected >= 1)");
    }
    this.maxBlocksPerEndpoint = maxBlocksPerEndpoint;
  }

  /** What applying a batch did, for metrics. */
  public record Applied(int stored, int removed, int orphans, int overflows, int ignored) {}

  /** Applies {@code events} from {@code address}'s engine, in order. */
  public Applied apply(String address, List<KvEvent> events) {
    Held held =
        byEndpoint.computeIfAbsent(address, a -> new Held(a, maxBlocksPerEndpoint / 4 + 16));
    int[] counts = new int[5];
    synchronized (held) {
      for (KvEvent e : events) {
        switch (e) {
          case KvEvent.BlockStored s -> store(address, held, s, counts);
          case KvEvent.BlockRemoved r -> {
            if (!r.onGpu()) {
              counts[4]++;
              continue;
            }
            for (long h : r.hashesShared()) {
              if (remove(address, held, h)) {
                counts[1]++;
              }
            }
          }
          case KvEvent.AllBlocksCleared c -> clear(address, held);
        }
      }
    }
    return new Applied(counts[0], counts[1], counts[2], counts[3], counts[4]);
  }

  private void store(String address, Held held, KvEvent.BlockStored s, int[] counts) {
    if (!s.onGpu()) {
      counts[4]++;
      return;
    }
    long parentKey;
    if (s.parentHash() == null) {
      parentKey = TokenBlockHasher.seed(s.adapter());
    } else {
      long parentHash = s.parentHash();
      Entry parent = held.byHash.get(parentHash);
      if (parent != null) {
        parentKey = parent.key;
      } else if (held.evicted.containsKey(parentHash)) {
        parentKey = held.evicted.get(parentHash);
      } else {
        counts[2]++;
        return;
      }
    }
    held.blockSize = s.blockSize();
    int[] tokens = s.tokensShared();
    for (int i = 0; i < s.hashCount(); i++) {
      long key =
          TokenBlockHasher.next(parentKey, tokens, i * s.blockSize(), (i + 1) * s.blockSize());
      Entry e = held.byHash.get(s.hash(i));
      if (e != null) {
        e.refs++;
      } else {
        held.byHash.put(s.hash(i), new Entry(key));
        held.evicted.remove(s.hash(i));
        if (held.keyRefs.addTo(key, 1) == 0) {
          holders.add(key, held.self);
        }
        counts[0]++;
        if (held.byHash.size() > maxBlocksPerEndpoint) {
          release(address, held, held.byHash.removeFirst().key);
          counts[3]++;
        }
      }
      parentKey = key;
    }
  }

  private boolean remove(String address, Held held, long hash) {
    Entry e = held.byHash.get(hash);
    if (e == null) {
      return false;
    }
    if (--e.refs > 0) {
      return true;
    }
    held.byHash.remove(hash);
    held.evicted.put(hash, e.key);
    if (held.evicted.size() > held.evictedBound) {
      held.evicted.removeFirstLong();
    }
    release(address, held, e.key);
    return true;
  }

  private void release(String address, Held held, long key) {
    if (held.keyRefs.addTo(key, -1) <= 1) {
      held.keyRefs.remove(key);
      holders.remove(key, address);
    }
  }

  private void clear(String address, Held held) {
    LongIterator keys = held.keyRefs.keySet().iterator();
    while (keys.hasNext()) {
      holders.remove(keys.nextLong(), address);
    }
    held.keyRefs.clear();
    held.byHash.clear();
    held.evicted.clear();
  }

  /** Forgets everything {@code address} holds (its engine restarted, or events were lost). */
  public void clear(String address) {
    Held held = byEndpoint.get(address);
    if (held != null) {
      synchronized (held) {
        clear(address, held);
      }
    }
  }

  /** Forgets {@code address} altogether (it left its pool). */
  public void remove(String address) {
    Held held = byEndpoint.remove(address);
    if (held != null) {
      synchronized (held) {
        clear(address, held);
      }
    }
  }

  /**
   * For each candidate, the number of leading blocks of {@code keys} (from {@link
   * TokenBlockHasher#hash}) it holds.
   *
   * @param indexOf maps an endpoint address to its candidate index, or -1
   */
  public int[] match(long[] keys, ToIntFunction<String> indexOf, int candidates) {
    int[] matched = new int[candidates];
    for (int b = 0; b < keys.length; b++) {
      boolean advanced = false;
      for (String h : holders.of(keys[b])) {
        int i = indexOf.applyAsInt(h);
        if (i >= 0 && matched[i] == b) {
          matched[i] = b + 1;
          advanced = true;
        }
      }
      if (!advanced) {
        break;
      }
    }
    return matched;
  }

  /** The block size {@code address}'s engine reported last, or 0 before any block. */
  public int blockSize(String address) {
    Held held = byEndpoint.get(address);
    return held == null ? 0 : held.blockSize;
  }

  /** The engine hashes of the blocks {@code address} holds, sorted. */
  public long[] engineHashes(String address) {
    Held held = byEndpoint.get(address);
    if (held == null) {
      return new long[0];
    }
    synchronized (held) {
      long[] out = held.byHash.keySet().toLongArray();
      Arrays.sort(out);
      return out;
    }
  }

  /** Engine blocks held by {@code address}. */
  public int size(String address) {
    Held held = byEndpoint.get(address);
    if (held == null) {
      return 0;
    }
    synchronized (held) {
      return held.byHash.size();
    }
  }

  /** Distinct block keys held by any endpoint. */
  public int distinctBlocks() {
    return holders.size();
  }

  /**
   * One endpoint's blocks; guarded by itself. {@code evicted} remembers the keys of recently
   * evicted blocks, so that a block whose cached parent was evicted while a running request still
   * held its own copy of it can still be keyed when that request stores it.
   */
  private static final class Held {
    final Long2ObjectLinkedOpenHashMap<Entry> byHash = new Long2ObjectLinkedOpenHashMap<>();
    final Long2IntOpenHashMap keyRefs = new Long2IntOpenHashMap();
    final Long2LongLinkedOpenHashMap evicted = new Long2LongLinkedOpenHashMap();
    final int evictedBound;
    final String[] self;
    volatile int blockSize;

    Held(String address, int evictedBound) {
      this.self = BlockHolders.self(address);
      this.evictedBound = evictedBound;
    }
  }

  private static final class Entry {
    final long key;
    int refs = 1;

    Entry(long key) {
      this.key = key;
    }
  }
}
