package dev.pointsman.picker.scheduling.prefix;

import it.unimi.dsi.fastutil.longs.LongIterator;
import it.unimi.dsi.fastutil.longs.LongLinkedOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * An approximate index of which endpoint probably holds which prompt-prefix blocks in its KV cache:
 * the blocks of the prompts the picker sent it, most recent kept, bounded per endpoint (LRU). Block
 * keys are kept unboxed.
 *
 * <p>Bounded in all, too ({@code maxBlocks}): when the endpoints' own bounds add up to more, each
 * keeps the same share of its own bound, its most recent blocks. A remembered block costs 60–120
 * bytes of heap (docs/picker.md, "Memory"), so a thousand endpoints at their full bound would need
 * gigabytes; the total bound keeps the index inside the heap it was given.
 *
 * <p>A long prompt may be kept by checkpoints ({@link Checkpoints}): every block of its head, then
 * one block in so many, and its last. A kept block then stands for the blocks since the one kept
 * before it, and bounds count the blocks kept ones stand for, so an endpoint's bound still means
 * what its KV cache holds. Recording a 220 KB prompt touches 888 keys instead of 3,520 (the
 * picker's checkpoints). A match is exact in the head and where a recorded prompt ended; elsewhere
 * it is told to the last checkpoint held, fewer than {@code stride} blocks short of where it ends.
 *
 * <p>Thread-safe: a lookup locks one stripe of {@link BlockHolders} per block, briefly; recording a
 * pick locks the chosen endpoint's LRU, and a stripe per block it adds or evicts. An endpoint that
 * comes or goes, or whose own bound changes, takes the index's lock to share out the total (lock
 * order: the index, then an endpoint's LRU, then a stripe).
 */
public final class PrefixIndex {
  /** No bound on the blocks remembered in all. */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  /** Told when the total bound starts or stops cutting the endpoints' own bounds. */
  @FunctionalInterface
  public interface BudgetListener {
    /**
     * @param binding whether the endpoints now keep less than their own bounds
     * @param wanted the blocks their own bounds add up to
     * @param maxBlocks the total bound
     */
    void changed(boolean binding, long wanted, long maxBlocks);
  }

  /** Which of a recorded prompt's blocks is forgotten first when an endpoint's bound is reached. */
  public enum Forgetting {
    /**
     * The last block: a prompt's blocks are touched last block first, so its first block is its
     * most recent. The picker's, because a server frees a finished request's blocks tail first
     * (vLLM, SGLang): a prefix without its tail still matches, a tail without its prefix never
     * does. A prompt longer than the bound keeps its leading blocks.
     */
    TAIL_FIRST,
    /**
     * The first block: blocks are touched in prompt order, so the first is the oldest, as the
     * Inference Extension's prefix indexer adds them (the benchmark's model of its router).
     */
    HEAD_FIRST
  }

  /**
   * Which blocks of a prompt the index keeps: the first {@code dense} every one, then every {@code
   * stride}-th (positions {@code dense - 1 + k × stride}), and the last. A kept block stands for
   * the blocks since the one kept before it (its weight, at most {@code stride}); which blocks are
   * kept, and their weights, depend on their positions only, so a block is the same key in every
   * prompt that has it.
   *
   * @param dense leading blocks kept every one
   * @param stride one block kept in so many after them, at most {@link #MAX_STRIDE}
   */
  public record Checkpoints(int dense, int stride) {
    /** Every block kept: the index as the baselines' routers keep theirs. */
    public static final Checkpoints EVERY_BLOCK = new Checkpoints(Integer.MAX_VALUE, 1);

    /** The widest stride: a kept block's weight is held in its key's low four bits. */
    public static final int MAX_STRIDE = 16;

    /** A checkpointed key's low bits: its weight less one. */
    private static final long WEIGHT_BITS = MAX_STRIDE - 1;

    public Checkpoints {
      if (dense < 1) {
        throw new IllegalArgumentException("dense: " + dense + " (expected >= 1)");
      }
      if (stride < 1 || stride > MAX_STRIDE) {
        throw new IllegalArgumentException(
            "stride: " + stride + " (expected 1 to " + MAX_STRIDE + ")");
      }
      if (stride == 1) {
        dense = Integer.MAX_VALUE; // every block kept, however it is written: one value
      }
    }

    boolean everyBlock() {
      return stride == 1;
    }

    /** How many of a prompt of {@code n} blocks are kept. */
    public int kept(int n) {
      return n <= dense ? n : dense + (n - dense - 1) / stride + 1;
    }

    /** The longest prompt, in blocks, whose kept blocks are at most {@code keys}. */
    public long longestKeptIn(long keys) {
      return keys <= dense ? keys : dense + (keys - dense) * stride;
    }

    /** The position of the {@code j}-th kept block of a prompt of {@code n} blocks. */
    int position(int j, int n) {
      if (j < dense) {
        return j;
      }
      return j == kept(n) - 1 ? n - 1 : dense - 1 + (j - dense + 1) * stride;
    }

    /**
     * The key under which the block at {@code position} is kept. Every block kept: the block
     * itself. By checkpoints: the block mixed, its low four bits replaced by its weight less one.
     */
    public long key(long block, int position) {
      if (everyBlock()) {
        return block;
      }
      return PrefixHasher.mix(block) & ~WEIGHT_BITS | (weight(position) - 1);
    }

    /** The key of the {@code j}-th kept block of the prompt {@code blocks}. */
    public long keyOf(long[] blocks, int j) {
      int p = position(j, blocks.length);
      return key(blocks[p], p);
    }

    /** The blocks the block kept at {@code position} stands for: back to the one kept before. */
    int weight(int position) {
      if (position < dense) {
        return 1;
      }
      int r = (position - (dense - 1)) % stride;
      return r == 0 ? stride : r;
    }
  }

  private final int capacityPerEndpoint;
  private final Forgetting forgetting;
  private final Checkpoints checkpoints;
  private final long maxBlocks;
  private final BlockHolders holders = new BlockHolders();
  private final ConcurrentHashMap<String, Lru> byEndpoint = new ConcurrentHashMap<>();

  /** The endpoints' own bounds added up; guarded by this. */
  private long wanted;

  /** Whether {@link #wanted} is over {@link #maxBlocks}; guarded by this. */
  private boolean binding;

  private volatile BudgetListener budgetListener = (b, w, m) -> {};

  /**
   * @param capacityPerEndpoint blocks remembered per endpoint; a prompt's tail is forgotten first
   */
  public PrefixIndex(int capacityPerEndpoint) {
    this(capacityPerEndpoint, Forgetting.TAIL_FIRST);
  }

  /**
   * @param capacityPerEndpoint blocks remembered per endpoint
   * @param forgetting which of a prompt's blocks goes first
   */
  public PrefixIndex(int capacityPerEndpoint, Forgetting forgetting) {
    this(capacityPerEndpoint, forgetting, UNBOUNDED);
  }

  /**
   * @param capacityPerEndpoint blocks remembered per endpoint
   * @param forgetting which of a prompt's blocks goes first
   * @param maxBlocks blocks remembered in all, or {@link #UNBOUNDED}
   */
  public PrefixIndex(int capacityPerEndpoint, Forgetting forgetting, long maxBlocks) {
    this(capacityPerEndpoint, forgetting, maxBlocks, Checkpoints.EVERY_BLOCK);
  }

  /**
   * @param capacityPerEndpoint blocks remembered per endpoint
   * @param forgetting which of a prompt's blocks goes first
   * @param maxBlocks blocks remembered in all, or {@link #UNBOUNDED}
   * @param checkpoints which blocks of a prompt are kept; every block unless tails are forgotten
   *     first (the search of {@link #match} relies on that)
   */
  public PrefixIndex(
      int capacityPerEndpoint, Forgetting forgetting, long maxBlocks, Checkpoints checkpoints) {
    if (!checkpoints.everyBlock() && forgetting != Forgetting.TAIL_FIRST) {
      throw new IllegalArgumentException(
          "checkpoints " + checkpoints + " need a prompt's tail forgotten first");
    }
    if (capacityPerEndpoint < 1) {
      throw new IllegalArgumentException(
          "capacityPerEndpoint: " + capacityPerEndpoint + " (expected >= 1)");
    }
    if (maxBlocks < 1) {
      throw new IllegalArgumentException("maxBlocks: " + maxBlocks + " (expected >= 1)");
    }
    this.capacityPerEndpoint = capacityPerEndpoint;
    this.forgetting = forgetting;
    this.maxBlocks = maxBlocks;
    this.checkpoints = checkpoints;
  }

  private long key(long block, int position) {
    return checkpoints.key(block, position);
  }

  /** The blocks a kept key stands for ({@link Checkpoints#key}). */
  private long weight(long key) {
    return checkpoints.everyBlock() ? 1 : (key & Checkpoints.WEIGHT_BITS) + 1;
  }

  /** Called, under the index's lock, each time the total bound starts or stops binding. */
  public void budgetListener(BudgetListener listener) {
    this.budgetListener = Objects.requireNonNull(listener, "listener");
  }

  /**
   * Remembers that {@code address} was sent a prompt with these blocks, the most recent of what it
   * holds; within the prompt, the block to go first is the last ({@link Forgetting#TAIL_FIRST}) or
   * the first ({@link Forgetting#HEAD_FIRST}).
   */
  public void record(String address, long[] blocks) {
    touchAll(address, blocks, false, forgetting == Forgetting.TAIL_FIRST, true);
  }

  /**
   * As {@link #record}, from a prompt's kept keys ({@link Checkpoints#keyOf}, by this index's own
   * checkpoints), in order: another replica's pick as it shares it.
   */
  public void recordKeys(String address, long[] keys) {
    touchAll(address, keys, true, forgetting == Forgetting.TAIL_FIRST, true);
  }

  /**
   * Whether the first {@code depth} of {@code blocks}, as {@link #match} told them for {@code
   * address}, end where a prompt recorded for it ended, one it still remembers: a prompt that goes
   * on from there continues that one (a conversation's next turn, an agent's next step) rather than
   * branching off a prefix many prompts share. Blocks restored from another replica's snapshot
   * carry no such mark; a peer's picks do ({@link #record}).
   */
  public boolean endsPrompt(String address, long[] blocks, int depth) {
    Lru lru = byEndpoint.get(address);
    if (lru == null || depth < 1) {
      return false;
    }
    long key = key(blocks[depth - 1], depth - 1);
    synchronized (lru) {
      return lru.ends.contains(key);
    }
  }

  /**
   * Takes another replica's blocks for {@code address} in its order, least recently used first (as
   * {@link #export} gives them): what a late or healed replica absorbs.
   */
  public void restore(String address, long[] leastRecentFirst) {
    touchAll(address, leastRecentFirst, true, false, false);
  }

  /**
   * Touches on {@code address}'s LRU the keys of {@code blocks} ({@code asKeys}: they are keys
   * already, as {@link #export} gives them), in order or {@code lastFirst}; {@code markEnd}: the
   * last ends a prompt ({@link #endsPrompt}).
   */
  private void touchAll(
      String address, long[] blocks, boolean asKeys, boolean lastFirst, boolean markEnd) {
    if (blocks.length == 0) {
      return;
    }
    int kept = asKeys ? blocks.length : checkpoints.kept(blocks.length);
    while (true) {
      Lru lru = lruOf(address);
      synchronized (lru) {
        if (lru.gone) {
          continue; // forgotten since it was looked up: record into the endpoint's new one
        }
        if (lastFirst) {
          for (int j = kept - 1; j >= 0; j--) {
            touch(lru, keyOf(blocks, j, asKeys));
          }
        } else {
          for (int j = 0; j < kept; j++) {
            touch(lru, keyOf(blocks, j, asKeys));
          }
        }
        long last = keyOf(blocks, kept - 1, asKeys);
        if (markEnd && lru.blocks.contains(last)) {
          lru.ends.add(last); // held unless the prompt is longer than the bound
        }
        return;
      }
    }
  }

  /**
   * The key of the {@code j}-th kept block of {@code blocks}, or {@code blocks[j]} {@code asKeys}.
   */
  private long keyOf(long[] blocks, int j, boolean asKeys) {
    return asKeys ? blocks[j] : checkpoints.keyOf(blocks, j);
  }

  /** {@code address}'s LRU, made at the index's own bound per endpoint if it has none. */
  private Lru lruOf(String address) {
    Lru lru = byEndpoint.get(address);
    if (lru != null) {
      return lru;
    }
    synchronized (this) {
      lru = byEndpoint.get(address);
      if (lru == null) {
        lru = new Lru(address, capacityPerEndpoint);
        byEndpoint.put(address, lru);
        wanted += lru.wanted;
        share();
      }
      return lru;
    }
  }

  private void touch(Lru lru, long block) {
    if (lru.blocks.addAndMoveToLast(block)) {
      holders.add(block, lru.self);
      lru.weight += weight(block);
      while (lru.weight > lru.capacity) {
        forget(lru, lru.blocks.removeFirstLong());
      }
    }
  }

  /** {@code block}, just taken out of {@code lru}, is no longer held there. */
  private void forget(Lru lru, long block) {
    holders.remove(block, lru.self[0]);
    lru.ends.remove(block);
    lru.weight -= weight(block);
  }

  /**
   * For each candidate, the number of leading blocks of {@code blocks} it holds. Kept by
   * checkpoints, told to the last checkpoint it holds, or past it to the end of a prompt recorded
   * there that ended before the next (a conversation's previous turn).
   *
   * <p>When tails are forgotten first, what an endpoint holds of any prompt is a prefix of it:
   * block k + 1 of a chain is only ever recorded with block k, and block k is touched after it, so
   * it is forgotten after it. Each endpoint that holds the first block is then searched by
   * bisection, a few probes per endpoint instead of one per block (a 220 KB prompt has 3,520
   * blocks). In prompt order the blocks are walked one by one until no candidate advances.
   *
   * @param indexOf maps an endpoint address to its candidate index, or -1
   * @param candidates how many candidates there are
   */
  public int[] match(long[] blocks, ToIntFunction<String> indexOf, int candidates) {
    int[] matched = new int[candidates];
    if (blocks.length == 0) {
      return matched;
    }
    if (forgetting == Forgetting.TAIL_FIRST) {
      for (String h : holders.of(key(blocks[0], 0))) {
        int i = indexOf.applyAsInt(h);
        if (i >= 0) {
          matched[i] = heldPrefix(h, blocks);
        }
      }
      return matched;
    }
    for (int b = 0; b < blocks.length; b++) {
      String[] hs = holders.of(blocks[b]);
      boolean advanced = false;
      for (String h : hs) {
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
   * The length of the prefix of {@code blocks} that {@code address} holds, to its last kept block
   * or a recorded prompt's end beyond it; it holds the first.
   */
  private int heldPrefix(String address, long[] blocks) {
    int n = blocks.length;
    int lo = 1; // holds the kept blocks [0, lo)
    int hi = checkpoints.kept(n); // holds no more than the kept blocks [0, hi)
    if (holders.holds(key(blocks[n - 1], n - 1), address)) {
      return n; // the whole prompt: the common case for a warm one
    }
    hi--;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      int p = checkpoints.position(mid - 1, n);
      if (holders.holds(key(blocks[p], p), address)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    int held = checkpoints.position(lo - 1, n);
    // between the checkpoint held and the next, only a prompt's last block can be kept: the
    // latest one held there, if any, is how far a prompt recorded here went
    for (int p = checkpoints.position(lo, n) - 1; p > held; p--) {
      if (holders.holds(key(blocks[p], p), address)) {
        return p + 1;
      }
    }
    return held + 1;
  }

  /** Convenience for callers with a list of candidate addresses. */
  public int[] match(long[] blocks, List<String> addresses) {
    Map<String, Integer> idx = new java.util.HashMap<>();
    for (int i = 0; i < addresses.size(); i++) {
      idx.put(addresses.get(i), i);
    }
    return match(blocks, a -> idx.getOrDefault(a, -1), addresses.size());
  }

  /**
   * Bounds what is remembered for {@code address} to what its KV cache can hold: {@code blocks}
   * prefix blocks (its KV capacity in tokens ÷ the tokens of a block), never more than this index's
   * own bound. A server evicts least-recently-used cached blocks, so a block older than its
   * capacity is probably gone; remembering it would promise a hit the server cannot give. Cheap
   * when the bound is unchanged; shrinking forgets the oldest blocks at once.
   */
  public void limit(String address, int blocks) {
    int bound = Math.max(1, Math.min(capacityPerEndpoint, blocks));
    Lru lru = byEndpoint.get(address);
    if (lru == null || lru.wanted == bound) {
      return;
    }
    synchronized (this) {
      if (byEndpoint.get(address) != lru || lru.wanted == bound) {
        return;
      }
      wanted += bound - lru.wanted;
      lru.wanted = bound;
      share();
    }
  }

  /**
   * Gives every endpoint its share of {@link #maxBlocks}: its own bound while they add up to no
   * more, else the same fraction of each one's (at least a block), forgetting its oldest blocks at
   * once where that is less than it holds. Called with the index's lock held.
   */
  private void share() {
    double fraction = wanted <= maxBlocks ? 1 : (double) maxBlocks / wanted;
    for (Lru lru : byEndpoint.values()) {
      int capacity = fraction == 1 ? lru.wanted : Math.max(1, (int) (lru.wanted * fraction));
      if (capacity != lru.capacity) {
        synchronized (lru) {
          lru.capacity = capacity;
          while (lru.weight > capacity) {
            forget(lru, lru.blocks.removeFirstLong());
          }
        }
      }
    }
    boolean nowBinding = fraction < 1;
    if (nowBinding != binding) {
      binding = nowBinding;
      budgetListener.changed(nowBinding, wanted, maxBlocks);
    }
  }

  /** Forgets endpoints that left every pool. */
  public void retain(Collection<String> addresses) {
    Set<String> keep = new HashSet<>(addresses);
    for (String address : List.copyOf(byEndpoint.keySet())) {
      if (!keep.contains(address)) {
        forget(address);
      }
    }
  }

  /** Forgets every block remembered for {@code address} (its engine's cache was emptied). */
  public synchronized void forget(String address) {
    // under the index's lock throughout: no new LRU for the address can record a block (lruOf)
    // until this one's holders are gone, so none of its blocks loses its holder here
    Lru lru = byEndpoint.remove(address);
    if (lru == null) {
      return;
    }
    synchronized (lru) {
      lru.gone = true;
      LongIterator it = lru.blocks.iterator();
      while (it.hasNext()) {
        holders.remove(it.nextLong(), address);
      }
    }
    wanted -= lru.wanted;
    share();
  }

  /** Blocks remembered for {@code address}: those kept, and those each kept one stands for. */
  public int size(String address) {
    Lru lru = byEndpoint.get(address);
    if (lru == null) {
      return 0;
    }
    synchronized (lru) {
      return (int) lru.weight;
    }
  }

  /**
   * What is remembered, per endpoint, as kept keys, least recently used first: {@link #restore
   * restoring} each list into an empty index of the same {@link Checkpoints} rebuilds the same
   * state (a late replica's snapshot).
   */
  public Map<String, long[]> export() {
    Map<String, long[]> out = new java.util.HashMap<>();
    for (Map.Entry<String, Lru> e : byEndpoint.entrySet()) {
      Lru lru = e.getValue();
      synchronized (lru) {
        out.put(e.getKey(), lru.blocks.toLongArray());
      }
    }
    return out;
  }

  /** Distinct keys held by any endpoint. */
  public int distinctBlocks() {
    return holders.size();
  }

  /**
   * Blocks remembered in all, one per endpoint that holds a block, counting those a kept block
   * stands for: never more than {@link #maxBlocks}, and the keys behind them fewer.
   */
  public long blocks() {
    return sum(lru -> lru.weight);
  }

  /**
   * Keys kept in all, one per endpoint that keeps one: what the index's memory grows with ({@link
   * #blocks} counts the blocks they stand for).
   */
  public long keys() {
    return sum(lru -> lru.blocks.size());
  }

  /** {@code of} each endpoint's LRU, read under its lock, added up. */
  private long sum(ToLongFunction<Lru> of) {
    long n = 0;
    for (Lru lru : byEndpoint.values()) {
      synchronized (lru) {
        n += of.applyAsLong(lru);
      }
    }
    return n;
  }

  /** Which blocks of a prompt are kept. */
  public Checkpoints checkpoints() {
    return checkpoints;
  }

  /** The endpoints' own bounds added up: what the index would hold at most without its total. */
  public synchronized long wantedBlocks() {
    return wanted;
  }

  /** The total bound, or {@link #UNBOUNDED}. */
  public long maxBlocks() {
    return maxBlocks;
  }

  /**
   * One endpoint's blocks, least recently used first; guarded by itself. {@code self} is the
   * endpoint's holder array in {@link BlockHolders}.
   */
  private static final class Lru {
    final LongLinkedOpenHashSet blocks = new LongLinkedOpenHashSet();

    /** Those of {@link #blocks} that ended a recorded prompt. */
    final LongOpenHashSet ends = new LongOpenHashSet();

    final String[] self;

    /** The blocks {@link #blocks} stand for ({@link #weight(long)}). */
    long weight;

    /** Its own bound: the index's per endpoint, or what its KV cache holds; set under the index. */
    volatile int wanted;

    /** What it keeps: {@link #wanted}, or its share of the total bound; set under both locks. */
    int capacity;

    /** Forgotten and out of the index: nothing is recorded into it any more. */
    boolean gone;

    Lru(String address, int capacity) {
      this.self = BlockHolders.self(address);
      this.wanted = capacity;
      this.capacity = capacity;
    }
  }
}
