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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * A precise index of which endpoint holds which KV block, built from the engines' own events. A
 * block is keyed by {@link TokenBlockHasher}: its parent's key and its token ids, so that a
 * request's token ids find it. Each endpoint maps the engine's hash of a block to that key, to
 * follow parents and evictions.
 *
 * <p>Two tiers: the blocks in an engine's GPU memory, and those it offloaded to CPU memory ({@code
 * medium: CPU}, vLLM's offloading connector, whose stores name the blocks' engine hashes without
 * their tokens), which it loads back rather than computes. Other media are ignored.
 *
 * <p>Bounded: at most {@code maxBlocksPerEndpoint} engine blocks per endpoint (on either tier),
 * plus a quarter of that of recently evicted ones' keys (about 250 bytes per block in all, so the
 * default 65,536 blocks cost about 16 MiB per endpoint); past it the oldest stored block is
 * forgotten and counted as an overflow (an engine never holds more blocks than its cache, so an
 * overflow means missed evictions or a bound set below the cache). Bounded in all too ({@code
 * maxBlocks}): each endpoint keeps at most an equal share of it; when an endpoint joins, those over
 * their new share forget their oldest blocks at once.
 *
 * <p>Thread-safe: one writer per endpoint (its subscriber) under that endpoint's lock, membership
 * changes under the same lock; {@link #match} locks the holders' stripes only. Block keys and
 * engine hashes are kept unboxed.
 */
public final class KvBlockIndex {

  private final int maxBlocksPerEndpoint;
  private final long maxBlocks;
  private final BlockHolders holders = new BlockHolders();
  private final BlockHolders offloadedHolders = new BlockHolders();

  /** Entries on any endpoint's CPU tier: none means no engine offloads, and matching skips it. */
  private final AtomicInteger offloadedEntries = new AtomicInteger();

  private final ConcurrentHashMap<String, Held> byEndpoint = new ConcurrentHashMap<>();

  public KvBlockIndex(int maxBlocksPerEndpoint) {
    this(maxBlocksPerEndpoint, Long.MAX_VALUE);
  }

  /**
   * @param maxBlocksPerEndpoint engine blocks kept per endpoint
   * @param maxBlocks engine blocks kept in all, shared equally by the endpoints
   */
  public KvBlockIndex(int maxBlocksPerEndpoint, long maxBlocks) {
    if (maxBlocksPerEndpoint < 1) {
      throw new IllegalArgumentException(
          "maxBlocksPerEndpoint: " + maxBlocksPerEndpoint + " (expected >= 1)");
    }
    if (maxBlocks < 1) {
      throw new IllegalArgumentException("maxBlocks: " + maxBlocks + " (expected >= 1)");
    }
    this.maxBlocksPerEndpoint = maxBlocksPerEndpoint;
    this.maxBlocks = maxBlocks;
  }

  /** Forgets the oldest blocks of every endpoint over its share, one endpoint at a time. */
  private void trimToShare() {
    int bound = share();
    for (var entry : byEndpoint.entrySet()) {
      Held held = entry.getValue();
      synchronized (held) {
        while (held.byHash.size() > bound) {
          drop(entry.getKey(), held, held.byHash.removeFirst());
        }
      }
    }
  }

  /** What one endpoint may keep now: its own bound, or its equal share of the total. */
  private int share() {
    long each = maxBlocks / Math.max(1, byEndpoint.size());
    return (int) Math.max(1, Math.min(maxBlocksPerEndpoint, each));
  }

  /** What applying a batch did, for metrics. */
  public record Applied(int stored, int removed, int orphans, int overflows, int ignored) {}

  /** Applies {@code events} from {@code address}'s engine, in order. */
  public Applied apply(String address, List<KvEvent> events) {
    Held held = byEndpoint.get(address);
    if (held == null) {
      held = byEndpoint.computeIfAbsent(address, a -> new Held(a, maxBlocksPerEndpoint / 4 + 16));
      if (maxBlocks != Long.MAX_VALUE) {
        trimToShare(); // one more endpoint: every share is smaller
      }
    }
    int[] counts = new int[5];
    int bound = share();
    synchronized (held) {
      for (KvEvent e : events) {
        switch (e) {
          case KvEvent.BlockStored s -> store(address, held, s, bound, counts);
          case KvEvent.BlockRemoved r -> {
            if (!r.onGpu() && !r.onCpu()) {
              counts[4]++;
              continue;
            }
            for (long h : r.hashesShared()) {
              if (remove(address, held, h, r.onGpu())) {
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

  /**
   * Stores a chain of blocks on the GPU or the CPU tier. A block is keyed by its parent's key and
   * its token ids; a store without token ids (the offloading connector's CPU stores) takes the key
   * of the block the endpoint already holds or recently evicted under the same engine hash, and is
   * an orphan otherwise.
   */
  private void store(String address, Held held, KvEvent.BlockStored s, int bound, int[] counts) {
    boolean gpu = s.onGpu();
    if (!gpu && !s.onCpu()) {
      counts[4]++;
      return;
    }
    int[] tokens = s.tokensShared();
    boolean tokenless = tokens.length < s.hashCount() * s.blockSize();
    long parentKey = 0;
    if (!tokenless) {
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
    }
    for (int i = 0; i < s.hashCount(); i++) {
      long hash = s.hash(i);
      Entry e = held.byHash.get(hash);
      long key;
      if (e != null) {
        key = e.key;
      } else if (!tokenless) {
        key = TokenBlockHasher.next(parentKey, tokens, i * s.blockSize(), (i + 1) * s.blockSize());
      } else if (held.evicted.containsKey(hash)) {
        key = held.evicted.get(hash);
      } else {
        counts[2]++;
        continue;
      }
      parentKey = key;
      if (e == null) {
        e = new Entry(key);
        held.byHash.put(hash, e);
        held.evicted.remove(hash);
      }
      if (gpu ? e.refs++ == 0 : !e.offloaded) {
        if (!gpu) {
          e.offloaded = true;
        }
        hold(held, gpu, key);
        counts[0]++;
      }
      if (held.byHash.size() > bound) {
        drop(address, held, held.byHash.removeFirst());
        counts[3]++;
      }
    }
  }

  /** Removes {@code hash} from the GPU or the CPU tier; false when that tier did not hold it. */
  private boolean remove(String address, Held held, long hash, boolean gpu) {
    Entry e = held.byHash.get(hash);
    if (e == null || (gpu ? e.refs == 0 : !e.offloaded)) {
      return false;
    }
    if (gpu) {
      if (--e.refs > 0) {
        return true;
      }
    } else {
      e.offloaded = false;
    }
    release(address, held, gpu, e.key);
    if (e.refs == 0 && !e.offloaded) {
      held.byHash.remove(hash);
      held.evicted.put(hash, e.key);
      if (held.evicted.size() > held.evictedBound) {
        held.evicted.removeFirstLong();
      }
    }
    return true;
  }

  private void hold(Held held, boolean gpu, long key) {
    held.onTier[gpu ? 0 : 1]++;
    if (!gpu) {
      offloadedEntries.incrementAndGet();
    }
    if ((gpu ? held.keyRefs : held.offloadedKeyRefs).addTo(key, 1) == 0) {
      (gpu ? holders : offloadedHolders).add(key, held.self);
    }
  }

  private void release(String address, Held held, boolean gpu, long key) {
    held.onTier[gpu ? 0 : 1]--;
    if (!gpu) {
      offloadedEntries.decrementAndGet();
    }
    Long2IntOpenHashMap refs = gpu ? held.keyRefs : held.offloadedKeyRefs;
    if (refs.addTo(key, -1) <= 1) {
      refs.remove(key);
      (gpu ? holders : offloadedHolders).remove(key, address);
    }
  }

  /** Forgets an entry pushed out by the bound, on whichever tiers held it. */
  private void drop(String address, Held held, Entry e) {
    if (e.refs > 0) {
      release(address, held, true, e.key);
    }
    if (e.offloaded) {
      release(address, held, false, e.key);
    }
  }

  private void clear(String address, Held held) {
    LongIterator keys = held.keyRefs.keySet().iterator();
    while (keys.hasNext()) {
      holders.remove(keys.nextLong(), address);
    }
    keys = held.offloadedKeyRefs.keySet().iterator();
    while (keys.hasNext()) {
      offloadedHolders.remove(keys.nextLong(), address);
    }
    held.keyRefs.clear();
    held.offloadedKeyRefs.clear();
    held.byHash.clear();
    offloadedEntries.addAndGet(-held.onTier[1]);
    held.onTier[0] = 0;
    held.onTier[1] = 0;
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

  /**
   * For each candidate, the number of blocks of {@code keys} after its {@code matched} GPU run that
   * its engine holds in a row in CPU memory (offloaded): what the engine would load instead of
   * computing.
   *
   * @param matched each candidate's leading GPU blocks, from {@link #match}
   */
  public int[] matchOffloaded(long[] keys, int[] matched, ToIntFunction<String> indexOf) {
    if (offloadedEntries.get() == 0) {
      return new int[matched.length]; // no engine offloads: nothing to look up
    }
    int[] end = matched.clone();
    int from = keys.length;
    for (int m : matched) {
      from = Math.min(from, m);
    }
    for (int b = from; b < keys.length; b++) {
      for (String h : offloadedHolders.of(keys[b])) {
        int i = indexOf.applyAsInt(h);
        if (i >= 0 && end[i] == b) {
          end[i] = b + 1;
        }
      }
      boolean going = false;
      for (int e : end) {
        going |= e > b;
      }
      if (!going) {
        break;
      }
    }
    for (int i = 0; i < end.length; i++) {
      end[i] -= matched[i];
    }
    return end;
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

  /** Engine blocks {@code address} holds in GPU memory ({@code gpu}) or in CPU memory. */
  public int size(String address, boolean gpu) {
    Held held = byEndpoint.get(address);
    if (held == null) {
      return 0;
    }
    synchronized (held) {
      return held.onTier[gpu ? 0 : 1];
    }
  }

  /** Engine blocks held by {@code address}, on either tier. */
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

  /** Engine blocks held in all, on either tier. */
  public long blocks() {
    long n = 0;
    for (Held held : byEndpoint.values()) {
      synchronized (held) {
        n += held.byHash.size();
      }
    }
    return n;
  }

  /** The total bound. */
  public long maxBlocks() {
    return maxBlocks;
  }

  /**
   * One endpoint's blocks; guarded by itself. {@code evicted} remembers the keys of recently
   * evicted blocks, so that a block whose cached parent was evicted while a running request still
   * held its own copy of it can still be keyed when that request stores it.
   */
  private static final class Held {
    final Long2ObjectLinkedOpenHashMap<Entry> byHash = new Long2ObjectLinkedOpenHashMap<>();
    final Long2IntOpenHashMap keyRefs = new Long2IntOpenHashMap();
    final Long2IntOpenHashMap offloadedKeyRefs = new Long2IntOpenHashMap();
    final int[] onTier = new int[2];
    final Long2LongLinkedOpenHashMap evicted = new Long2LongLinkedOpenHashMap();
    final int evictedBound;
    final String[] self;
    volatile int blockSize;

    Held(String address, int evictedBound) {
      this.self = BlockHolders.self(address);
      this.evictedBound = evictedBound;
    }
  }

  /**
   * A block an endpoint holds: {@code refs} GPU stores not yet removed, and the CPU tier's copy.
   */
  private static final class Entry {
    final long key;
    int refs;
    boolean offloaded;

    Entry(long key) {
      this.key = key;
    }
  }
}
