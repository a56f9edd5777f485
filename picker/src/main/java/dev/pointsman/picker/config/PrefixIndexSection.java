package dev.pointsman.picker.config;

/**
 * The approximate prefix index's total bound: how many prompt blocks it remembers across every
 * endpoint. Each endpoint's own bound is what its KV cache holds (at most 31,250 blocks, about 500k
 * tokens); when those add up to more, every endpoint keeps the same share of its own, its most
 * recent blocks (docs/picker.md, "Memory").
 *
 * <p>The precise index (the engines' KV events, a pool's {@code kvEvents}) is bounded in all the
 * same way: each endpoint keeps at most its equal share of {@code maxEngineBlocks}.
 *
 * @param maxBlocks blocks remembered in all; absent: {@link #HEAP_SHARE} of the JVM's maximum heap
 *     at {@link #BYTES_PER_BLOCK} a block
 * @param maxEngineBlocks engine blocks the precise index keeps in all; absent: {@link
 *     #ENGINE_HEAP_SHARE} of the heap at {@link #BYTES_PER_ENGINE_BLOCK} a block
 */
public record PrefixIndexSection(Long maxBlocks, Long maxEngineBlocks) {
  public static final PrefixIndexSection DEFAULTS = new PrefixIndexSection(null, null);

  /** The share of the heap the precise index's default bound gives it. */
  public static final double ENGINE_HEAP_SHARE = 0.2;

  /**
   * What an engine block costs the precise index, with its recently evicted keys (kv-events.md).
   */
  public static final int BYTES_PER_ENGINE_BLOCK = 250;

  /** The share of the heap the default bound gives the index. */
  public static final double HEAP_SHARE = 0.4;

  /**
   * What a remembered block costs at most, rounded up: 59–118 bytes measured from 16 to 1,024
   * endpoints, the most with G1 on a heap under 2 GiB, whose 1 MiB regions hold a hash table of 512
   * KiB or more alone (docs/picker.md, "Memory").
   */
  public static final int BYTES_PER_BLOCK = 120;

  /** The least a bound may be: a few endpoints' worth of short prompts. */
  public static final long MIN_BLOCKS = 1_000;

  public PrefixIndexSection {
    atLeastMin("maxBlocks", maxBlocks);
    atLeastMin("maxEngineBlocks", maxEngineBlocks);
  }

  /** The precise index's bound in force in a JVM whose maximum heap is {@code maxHeapBytes}. */
  public long maxEngineBlocks(long maxHeapBytes) {
    return orFromHeap(maxEngineBlocks, maxHeapBytes, ENGINE_HEAP_SHARE, BYTES_PER_ENGINE_BLOCK);
  }

  /** The bound in force in a JVM whose maximum heap is {@code maxHeapBytes}. */
  public long maxBlocks(long maxHeapBytes) {
    return orFromHeap(maxBlocks, maxHeapBytes, HEAP_SHARE, BYTES_PER_BLOCK);
  }

  private static void atLeastMin(String name, Long blocks) {
    if (blocks != null && blocks < MIN_BLOCKS) {
      throw new IllegalArgumentException(
          name + ": " + blocks + " (expected >= " + MIN_BLOCKS + ")");
    }
  }

  /** {@code set}, else {@code share} of the heap at {@code bytesPerBlock} (at least the least). */
  private static long orFromHeap(Long set, long maxHeapBytes, double share, int bytesPerBlock) {
    if (set != null) {
      return set;
    }
    return Math.max(MIN_BLOCKS, (long) (maxHeapBytes * share / bytesPerBlock));
  }
}
