package dev.pointsman.picker.scheduling.prefix;

/**
 * Splits prompt text into fixed-size character blocks and hashes each block chained with the
 * previous block's hash, the chain seeded with the model name. Two prompts share the first k hashes
 * exactly when they share the first k blocks of text (up to hash collisions) and the model.
 *
 * <p>Hashing reads every character up to the bound once: about 0.4 ns a character on the
 * development machine with the four lanes below (a 220 KB prompt in about 90 µs, against 165 µs
 * with one chain; docs/benchmarks.md).
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

  /** Each word's fold: multiply, then rotate left this far. */
  private static final int FOLD_ROTATION = 29;

  /** Murmur3's 64-bit finalizer's multipliers. */
  private static final long MIX_1 = 0xff51afd7ed558ccdL;

  private static final long MIX_2 = 0xc4ceb9fe1a85ec53L;

  /** Seeds that set lanes 1–3 apart from lane 0 (SplitMix64's first outputs from seed 0). */
  private static final long LANE_1 = 0xe220a8397b1dcdafL;

  private static final long LANE_2 = 0x6e789e6aa1b965f4L;
  private static final long LANE_3 = 0x06c45d188009454fL;

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
   * multiply and a rotation (so every bit of a word reaches the low bits of the next step). Words
   * go to four lanes in turn (word k to lane k mod 4, each lane seeded apart from the others), so
   * the four chains of multiplies run side by side instead of one after another; the lanes are
   * summed, each rotated by its own amount so that equal lanes cannot cancel, and the sum goes
   * through Murmur3's finalizer. Words past the last group of four, and characters past the last
   * word, go to the first lane (never with the default 64-character blocks).
   */
  public long[] hash(String model, CharSequence text) {
    int blocks = Math.min(maxBlocks, text.length() / blockChars);
    long[] out = new long[blocks];
    long h = mix(fnv(0xcbf29ce484222325L, model));
    // The loops call nothing but charAt, every other step written out: C2 inlines a call in a
    // loop by the profile of the method the call is written in, and a small helper's profile
    // (a word read, a fold) was sometimes never gathered, so that one JVM in four to eight left
    // the reads uninlined and hashed six times slower (docs/benchmarks.md, "The prefix hasher").
    for (int b = 0; b < blocks; b++) {
      long x0 = h;
      long x1 = h ^ LANE_1;
      long x2 = h ^ LANE_2;
      long x3 = h ^ LANE_3;
      int i = b * blockChars;
      int end = i + blockChars;
      for (; i + 16 <= end; i += 16) {
        long w0 =
            text.charAt(i)
                | (long) text.charAt(i + 1) << 16
                | (long) text.charAt(i + 2) << 32
                | (long) text.charAt(i + 3) << 48;
        long w1 =
            text.charAt(i + 4)
                | (long) text.charAt(i + 5) << 16
                | (long) text.charAt(i + 6) << 32
                | (long) text.charAt(i + 7) << 48;
        long w2 =
            text.charAt(i + 8)
                | (long) text.charAt(i + 9) << 16
                | (long) text.charAt(i + 10) << 32
                | (long) text.charAt(i + 11) << 48;
        long w3 =
            text.charAt(i + 12)
                | (long) text.charAt(i + 13) << 16
                | (long) text.charAt(i + 14) << 32
                | (long) text.charAt(i + 15) << 48;
        x0 = (x0 ^ w0) * WORD_MULTIPLIER;
        x1 = (x1 ^ w1) * WORD_MULTIPLIER;
        x2 = (x2 ^ w2) * WORD_MULTIPLIER;
        x3 = (x3 ^ w3) * WORD_MULTIPLIER;
        x0 = x0 << FOLD_ROTATION | x0 >>> -FOLD_ROTATION;
        x1 = x1 << FOLD_ROTATION | x1 >>> -FOLD_ROTATION;
        x2 = x2 << FOLD_ROTATION | x2 >>> -FOLD_ROTATION;
        x3 = x3 << FOLD_ROTATION | x3 >>> -FOLD_ROTATION;
      }
      for (; i + 4 <= end; i += 4) {
        long w =
            text.charAt(i)
                | (long) text.charAt(i + 1) << 16
                | (long) text.charAt(i + 2) << 32
                | (long) text.charAt(i + 3) << 48;
        x0 = (x0 ^ w) * WORD_MULTIPLIER;
        x0 = x0 << FOLD_ROTATION | x0 >>> -FOLD_ROTATION;
      }
      for (; i < end; i++) {
        x0 = (x0 ^ text.charAt(i)) * WORD_MULTIPLIER;
        x0 = x0 << FOLD_ROTATION | x0 >>> -FOLD_ROTATION;
      }
      long z = x0 + (x1 << 16 | x1 >>> 48) + (x2 << 32 | x2 >>> 32) + (x3 << 48 | x3 >>> 16);
      z = (z ^ (z >>> 33)) * MIX_1; // Murmur3's finalizer, as in mix()
      z = (z ^ (z >>> 33)) * MIX_2;
      h = z ^ (z >>> 33);
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
  static long mix(long z) {
    z = (z ^ (z >>> 33)) * MIX_1;
    z = (z ^ (z >>> 33)) * MIX_2;
    return z ^ (z >>> 33);
  }
}
