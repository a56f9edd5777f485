package dev.pointsman.sim.engine;

/**
 * Paged KV cache with automatic prefix caching. Blocks with no holder sit in a free queue, least
 * recently freed first; a free block keeps its content hash until it is reused (evicted). Not
 * thread-safe. A copy shares the arrays with the original until either side writes (see {@link
 * CowInts}): it costs a pointer per 512 blocks, and each side then copies only the chunks it
 * changes. With offloading ({@link OffloadTier}) every block registered here is also stored in the
 * CPU tier, and the tier's blocks that follow a prompt's GPU hit can be loaded back.
 */
final class KvCache {
  private final int total;
  private final int blockSize;
  private final boolean caching;
  private final CowInts ref;
  private final CowLongs hash;
  private final CowInts prev;
  private final CowInts next;
  private final LongIntMap index;
  private final OffloadTier tier;
  private int free;
  private KvEventListener events = KvEventListener.NONE;

  KvCache(int total, int blockSize, boolean caching) {
    this(total, blockSize, caching, 0);
  }

  /** A cache with a CPU tier of {@code offloadBlocks} blocks (0: none). */
  KvCache(int total, int blockSize, boolean caching, int offloadBlocks) {
    this.total = total;
    this.tier = offloadBlocks > 0 ? new OffloadTier(offloadBlocks) : null;
    this.blockSize = blockSize;
    this.caching = caching;
    ref = new CowInts(total);
    hash = new CowLongs(total);
    prev = new CowInts(total + 1);
    next = new CowInts(total + 1);
    index = new LongIntMap(total);
    prev.set(total, total);
    next.set(total, total);
    for (int b = 0; b < total; b++) {
      append(b);
    }
    free = total;
  }

  private KvCache(KvCache o) {
    total = o.total;
    blockSize = o.blockSize;
    caching = o.caching;
    ref = o.ref.fork();
    hash = o.hash.fork();
    prev = o.prev.fork();
    next = o.next.fork();
    index = o.index.copy();
    tier = o.tier == null ? null : o.tier.copy();
    free = o.free;
  }

  KvCache copy() {
    return new KvCache(this);
  }

  /** An empty cache of the same size, as after an engine restart. */
  KvCache emptied() {
    KvCache c = new KvCache(total, blockSize, caching, tier == null ? 0 : tier.capacity());
    c.events = events;
    events.cleared();
    return c;
  }

  /**
   * Tells {@code listener} of stored and evicted blocks from now on (not copied by {@link #copy}).
   */
  void listen(KvEventListener listener) {
    events = listener;
  }

  /** Content hashes of the cached blocks, in block order. */
  long[] cachedHashes() {
    return java.util.stream.IntStream.range(0, total)
        .mapToLong(hash::get)
        .filter(h -> h != 0)
        .toArray();
  }

  int total() {
    return total;
  }

  int used() {
    return total - free;
  }

  /** Number of leading blocks of {@code s} found in the cache, keeping one token to compute. */
  int cachedPrefixBlocks(Seq s) {
    if (!caching) {
      return 0;
    }
    int max = Math.min(s.hashes.length, (s.numTokens() - 1) / blockSize);
    int n = 0;
    while (n < max && index.get(s.hashes[n]) >= 0) {
      n++;
    }
    return n;
  }

  /**
   * Number of blocks of {@code s} from block {@code from} on that the CPU tier holds in a row, as
   * far as {@link #cachedPrefixBlocks} would look; 0 without a tier.
   */
  int offloadedBlocks(Seq s, int from) {
    if (!caching || tier == null) {
      return 0;
    }
    int max = Math.min(s.hashes.length, (s.numTokens() - 1) / blockSize);
    int n = from;
    while (n < max && tier.holds(s.hashes[n])) {
      n++;
    }
    return n - from;
  }

  /**
   * Marks blocks {@code from} to {@code from + count} of {@code s} as just loaded from the tier.
   */
  void loaded(Seq s, int from, int count) {
    for (int i = from; i < from + count; i++) {
      tier.touch(s.hashes[i]);
    }
  }

  /** Content hashes of the blocks in the CPU tier; none without one. */
  long[] offloadedHashes() {
    return tier == null ? new long[0] : tier.hashes();
  }

  /** Blocks in the CPU tier; 0 without one. */
  int offloaded() {
    return tier == null ? 0 : tier.size();
  }

  /**
   * Gives {@code s} its first {@code hits} blocks from the cache and enough new blocks for {@code
   * tokens} tokens, or changes nothing and returns false if there is no room.
   */
  boolean admit(Seq s, int hits, int tokens) {
    int freeHits = 0;
    for (int i = 0; i < hits; i++) {
      if (ref.get(index.get(s.hashes[i])) == 0) {
        freeHits++;
      }
    }
    int fresh = blocksFor(tokens) - hits;
    if (fresh + freeHits > free) {
      return false;
    }
    for (int i = 0; i < hits; i++) {
      int b = index.get(s.hashes[i]);
      if (ref.add(b, 1) == 1) {
        unlink(b);
        free--;
      }
      s.addBlock(b);
    }
    s.registered = hits;
    return grow(s, tokens);
  }

  /** Allocates blocks so that {@code s} holds {@code tokens} tokens; false if out of blocks. */
  boolean grow(Seq s, int tokens) {
    int need = blocksFor(tokens) - s.numBlocks;
    if (need > free) {
      return false;
    }
    for (int i = 0; i < need; i++) {
      s.addBlock(take());
    }
    return true;
  }

  /** Registers the blocks of {@code s} that became full. */
  void registerFull(Seq s) {
    int full = Math.min(s.computed / blockSize, s.hashes.length);
    for (int i = s.registered; i < full; i++) {
      int b = s.blocks[i];
      if (caching && hash.get(b) == 0 && index.putIfAbsent(s.hashes[i], b)) {
        hash.set(b, s.hashes[i]);
        events.stored(i == 0 ? 0 : s.hashes[i - 1], s.hashes[i], blockSize);
      }
      if (caching && tier != null) {
        tier.store(i == 0 ? 0 : s.hashes[i - 1], s.hashes[i], blockSize, events);
      }
    }
    s.registered = Math.max(s.registered, full);
  }

  /** Releases all blocks of {@code s}, tail first so that prefixes outlive suffixes. */
  void release(Seq s) {
    for (int i = s.numBlocks - 1; i >= 0; i--) {
      int b = s.blocks[i];
      if (ref.add(b, -1) == 0) {
        append(b);
        free++;
      }
    }
    s.numBlocks = 0;
    s.registered = 0;
  }

  private int blocksFor(int tokens) {
    return (tokens + blockSize - 1) / blockSize;
  }

  private int take() {
    int b = next.get(total);
    unlink(b);
    free--;
    ref.set(b, 1);
    long h = hash.get(b);
    if (h != 0) {
      events.removed(h);
      index.remove(h);
      hash.set(b, 0);
    }
    return b;
  }

  private void append(int b) {
    int last = prev.get(total);
    next.set(last, b);
    prev.set(b, last);
    next.set(b, total);
    prev.set(total, b);
  }

  private void unlink(int b) {
    next.set(prev.get(b), next.get(b));
    prev.set(next.get(b), prev.get(b));
  }
}
