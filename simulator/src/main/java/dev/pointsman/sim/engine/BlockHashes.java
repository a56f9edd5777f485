package dev.pointsman.sim.engine;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Chained hashes of the full KV blocks of a token sequence given as segments. The hash of block
 * {@code b} covers the hash of block {@code b-1} (or the model/adapter identity for block 0) and,
 * for every piece of a segment inside the block, {@code (contentId, offset, length)}; equal token
 * sequences therefore hash equally however they are split across requests.
 */
public final class BlockHashes {
  private BlockHashes() {}

  /** Identity seed of a model and adapter; part of every block hash. */
  public static long identity(String model, String adapter) {
    return combine(of(model), of(adapter));
  }

  /** A 64-bit hash of a string. */
  public static long of(String text) {
    long h = 0x243F6A8885A308D3L;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ b) * 0x100000001B3L;
    }
    return mix(h);
  }

  /**
   * Hashes of all full blocks of {@code prompt} followed by {@code outputTokens} tokens of content
   * {@code outputContentId}.
   */
  static long[] of(
      long identity, List<Segment> prompt, long outputContentId, int outputTokens, int blockSize) {
    long total = outputTokens;
    for (Segment s : prompt) {
      total += s.length();
    }
    long[] out = new long[(int) (total / blockSize)];
    Cursor c = new Cursor(identity, out, blockSize);
    for (Segment s : prompt) {
      c.append(s.contentId(), s.length());
    }
    c.append(outputContentId, outputTokens);
    return out;
  }

  /** The vocabulary token ids are drawn from: Llama 3's. */
  private static final int VOCABULARY = 128_256;

  /**
   * Token ids of the block with content hash {@code hash}: the simulator knows token counts, not
   * tokens, so a block's ids are derived from its hash, deterministically (equal blocks carry equal
   * ids). Its KV events carry them, and so does what a tokenizer of its requests returns.
   */
  public static int[] tokenIds(long hash, int blockSize) {
    int[] ids = new int[blockSize];
    for (int i = 0; i < blockSize; i++) {
      long z = hash + (i + 1) * 0x9E3779B97F4A7C15L;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      ids[i] = (int) Math.floorMod(z ^ (z >>> 31), (long) VOCABULARY);
    }
    return ids;
  }

  /** Mixes {@code value} into {@code hash}. */
  public static long combine(long hash, long value) {
    return mix(hash + 0x9E3779B97F4A7C15L + mix(value ^ 0x632BE59BD9B4E019L));
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static final class Cursor {
    private final long[] out;
    private final int blockSize;
    private long hash;
    private int filled;
    private int block;

    Cursor(long seed, long[] out, int blockSize) {
      this.hash = seed;
      this.out = out;
      this.blockSize = blockSize;
    }

    void append(long contentId, int length) {
      int offset = 0;
      while (offset < length && block < out.length) {
        int take = Math.min(length - offset, blockSize - filled);
        hash = combine(combine(combine(hash, contentId), offset), take);
        filled += take;
        offset += take;
        if (filled == blockSize) {
          out[block++] = hash == 0 ? 1 : hash;
          filled = 0;
        }
      }
    }
  }
}
