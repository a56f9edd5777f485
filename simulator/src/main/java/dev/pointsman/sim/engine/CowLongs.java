package dev.pointsman.sim.engine;

import java.util.Arrays;

/**
 * A fixed-length {@code long} array in chunks that copies share until one side writes: {@link
 * #fork} costs one pointer per chunk instead of the whole array, and each side then copies only the
 * chunks it changes; see {@link CowInts}. Not thread-safe.
 */
final class CowLongs {
  private static final int SHIFT = CowInts.SHIFT;
  private static final int CHUNK = 1 << SHIFT;
  private static final int MASK = CHUNK - 1;

  private final int length;
  private final long[][] chunks;

  /** Whether this instance alone holds chunk {@code c} and may write it in place. */
  private final boolean[] owned;

  CowLongs(int length) {
    this.length = length;
    int n = (length + MASK) >>> SHIFT;
    chunks = new long[n][];
    owned = new boolean[n];
    for (int c = 0; c < n; c++) {
      chunks[c] = new long[Math.min(CHUNK, length - (c << SHIFT))];
      owned[c] = true;
    }
  }

  private CowLongs(CowLongs o) {
    length = o.length;
    chunks = o.chunks.clone();
    owned = new boolean[chunks.length];
    Arrays.fill(o.owned, false);
  }

  /**
   * A copy that shares every chunk with this one until either writes it. Writes to this instance
   * too (it gives up sole ownership of its chunks).
   */
  CowLongs fork() {
    return new CowLongs(this);
  }

  int length() {
    return length;
  }

  long get(int i) {
    return chunks[i >>> SHIFT][i & MASK];
  }

  void set(int i, long value) {
    writable(i >>> SHIFT)[i & MASK] = value;
  }

  private long[] writable(int c) {
    if (!owned[c]) {
      chunks[c] = chunks[c].clone();
      owned[c] = true;
    }
    return chunks[c];
  }
}
