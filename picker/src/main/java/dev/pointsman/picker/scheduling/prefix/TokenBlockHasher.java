package dev.pointsman.picker.scheduling.prefix;

/**
 * Pointsman's own chained hash of token-id blocks: the key of block {@code b} covers the key of
 * block {@code b-1} (or a seed naming the LoRA adapter, for block 0) and the block's token ids. An
 * engine's own block hash is salted or algorithm-dependent (vLLM seeds its chain at random unless
 * {@code PYTHONHASHSEED} is set), so the precise prefix index keys the blocks an engine reports by
 * this hash of the token ids the engine sends along, and a request's token ids hash the same way.
 */
public final class TokenBlockHasher {
  private TokenBlockHasher() {}

  /** The chain's seed for blocks computed under {@code adapter} (null or empty: the base model). */
  public static long seed(String adapter) {
    long x = 0x6A09E667F3BCC908L;
    if (adapter != null) {
      for (int i = 0; i < adapter.length(); i++) {
        x = (x ^ adapter.charAt(i)) * 0x100000001B3L;
      }
    }
    return mix(x);
  }

  /** The key of the block of {@code tokens[from, to)} whose parent block has key {@code parent}. */
  public static long next(long parent, int[] tokens, int from, int to) {
    long x = parent ^ 0x9E3779B97F4A7C15L;
    for (int i = from; i < to; i++) {
      x = mix(x + tokens[i]);
    }
    return mix(x ^ (to - from));
  }

  /**
   * Keys of the full blocks of {@code tokens} in blocks of {@code blockSize}, at most {@code
   * maxBlocks} of them.
   */
  public static long[] hash(String adapter, int[] tokens, int blockSize, int maxBlocks) {
    if (blockSize < 1) {
      throw new IllegalArgumentException("blockSize: " + blockSize + " (expected >= 1)");
    }
    int n = Math.min(maxBlocks, tokens.length / blockSize);
    long[] out = new long[n];
    long key = seed(adapter);
    for (int b = 0; b < n; b++) {
      key = next(key, tokens, b * blockSize, (b + 1) * blockSize);
      out[b] = key;
    }
    return out;
  }

  /** SplitMix64's finalizer. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
