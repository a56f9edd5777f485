package dev.pointsman.picker.scheduling.prefix;

/**
 * Splits prompt text into fixed-size character blocks and hashes each block chained with the
 * previous block's hash, the chain seeded with the model name. Two prompts share the first k hashes
 * exactly when they share the first k blocks of text (up to hash collisions) and the model.
 *
 * <p>Hashing reads every character up to the bound once. Measured with matching included ({@code
 * SchedulerBenchmark}, docs/benchmarks.md): a decision costs about 3.5 µs more per 1,000 characters
 * past the first 16 KB, some 0.45 ms for a 32k-token prompt, before characters were taken four at a
 * time.
 *
 * @param blockChars characters per block (64 ≈ 16 tokens)
 * @param maxBlocks blocks hashed at most; a prompt that reaches them may go on unhashed ({@link
 *     #reachesBound})
 */
public record PrefixHasher(int blockChars, int maxBlocks) {

  /**
   * 8,192 blocks of 64 characters: 524,288 characters, about 131,072 tokens at four characters a
   * token, the context of today's long-context models, so a real prompt is hashed whole.
   */
  public static final PrefixHasher DEFAULT = new PrefixHasher(64, 8_192);

  /** An odd constant with well-spread bits (2^64 divided by the golden ratio). */
  private static final long WORD_MULTIPLIER = 0x9e3779b97f4a7c15L;

  public PrefixHasher {
    if (blockChars < 1) {
      throw new IllegalArgumentException("blockChars: " + blockChars + " (expected >= 1)");
    }
    if (maxBlocks < 1) {
      throw new IllegalArgumentException("maxBlocks: " + maxBlocks + " (expected >= 1)");
    }
    if ((long) blockChars * maxBlocks > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "blockChars × maxBlocks: "
              + blockChars
              + " × "
              + maxBlocks
              + " (expected <= "
              + Integer.MAX_VALUE
              + ")");
    }
  }

  /** The characters hashed at most: {@code blockChars × maxBlocks}. */
  public int maxChars() {
    return blockChars * maxBlocks;
  }

  /**
   * Whether {@code text} is long enough to fill every block: the prompt it starts may go on past
   * what {@link #hash} reads.
   */
  public boolean reachesBound(CharSequence text) {
    return text.length() >= maxChars();
  }

  /**
   * Hashes of the full blocks of {@code text}, chained and seeded with {@code model}. Within a
   * block four UTF-16 characters are taken at a time as one 64-bit word, each folded in with a
   * multiply and a rotation (so every bit of a word reaches the low bits of the next step); a
   * block's result goes through Murmur3's finalizer. One multiply per four characters instead of
   * per character: the serial chain of multiplies was the cost of hashing a long prompt.
   */
  public long[] hash(String model, CharSequence text) {
    int blocks = Math.min(maxBlocks, text.length() / blockChars);
    long[] out = new long[blocks];
    long h = mix(fnv(0xcbf29ce484222325L, model));
    for (int b = 0; b < blocks; b++) {
      long x = h;
      int i = b * blockChars;
      int end = i + blockChars;
      for (; i + 4 <= end; i += 4) {
        long word =
            text.charAt(i)
                | (long) text.charAt(i + 1) << 16
                | (long) text.charAt(i + 2) << 32
                | (long) text.charAt(i + 3) << 48;
        x = Long.rotateLeft((x ^ word) * WORD_MULTIPLIER, 29);
      }
      for (; i < end; i++) {
        x = Long.rotateLeft((x ^ text.charAt(i)) * WORD_MULTIPLIER, 29);
      }
      h = mix(x);
      out[b] = h;
    }
    return out;
  }

  private static long fnv(long seed, CharSequence s) {
    long x = seed;
    for (int i = 0; i < s.length(); i++) {
      x = (x ^ s.charAt(i)) * 0x100000001b3L;
    }
    return x;
  }

  /** Murmur3's 64-bit finalizer: spreads every input bit over the output. */
  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
