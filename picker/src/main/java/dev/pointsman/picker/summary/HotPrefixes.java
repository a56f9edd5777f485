package dev.pointsman.picker.summary;

import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The prefixes each pool served most recently, as digests a fleet tier can compare with a new
 * request's: the picker's own prefix-block hashes ({@link PrefixHasher#DEFAULT}: 64-character
 * blocks chained from a seed of the model name), of which a routed prompt contributes one, the
 * chain's value at its last full block within the first {@link #AFFINITY_BLOCKS}. A later turn of
 * the same conversation begins with the earlier turn's prompt, so one of its first chain values
 * equals that digest; the deepest match is the longest shared prefix ({@link #chain}).
 *
 * <p>Shared mutable state, named: one bounded LRU per pool ({@code capacity} digests), written by
 * request threads and read by the summary refresh. Thread-safe: each pool's set is locked on its
 * own, for a put or a copy.
 */
public final class HotPrefixes {
  /** The prefix a digest stands for, at most: 16 blocks, 1,024 characters. */
  public static final int AFFINITY_BLOCKS = 16;

  private static final PrefixHasher HASHER = new PrefixHasher(64, AFFINITY_BLOCKS);

  private final int capacity;
  private final Map<String, LinkedHashMap<Long, Boolean>> byPool = new ConcurrentHashMap<>();

  /**
   * @param capacity digests kept per pool (the oldest go first); 0 keeps none
   */
  public HotPrefixes(int capacity) {
    if (capacity < 0 || capacity > 100_000) {
      throw new IllegalArgumentException(
          "summary.hotPrefixes: " + capacity + " (expected 0..100000)");
    }
    this.capacity = capacity;
  }

  /**
   * The chain of prefix digests of a prompt, one per full 64-character block of its first {@link
   * #AFFINITY_BLOCKS}: the values a pool's digest is compared with. Empty under one block.
   */
  public static long[] chain(String model, CharSequence promptPrefix) {
    return HASHER.hash(model == null ? "" : model, promptPrefix == null ? "" : promptPrefix);
  }

  /** Notes that {@code pool} served a prompt; a prompt under one block is not noted. */
  public void record(String pool, String model, CharSequence promptPrefix) {
    if (capacity == 0) {
      return;
    }
    long[] chain = chain(model, promptPrefix);
    if (chain.length == 0) {
      return;
    }
    LinkedHashMap<Long, Boolean> set =
        byPool.computeIfAbsent(pool, p -> new LinkedHashMap<>(16, 0.75f, true));
    synchronized (set) {
      set.put(chain[chain.length - 1], Boolean.TRUE);
      if (set.size() > capacity) {
        set.remove(set.keySet().iterator().next());
      }
    }
  }

  /** The digests of {@code pool}, newest first. */
  public List<Long> of(String pool) {
    LinkedHashMap<Long, Boolean> set = byPool.get(pool);
    if (set == null) {
      return List.of();
    }
    List<Long> out;
    synchronized (set) {
      out = new ArrayList<>(set.keySet());
    }
    return out.reversed();
  }

  /** Forgets the pools not in {@code pools}. */
  public void retain(java.util.Collection<String> pools) {
    byPool.keySet().retainAll(java.util.Set.copyOf(pools));
  }
}
