package dev.pointsman.sim.engine;

import java.util.Arrays;

/**
 * A fixed-length {@code int} array in chunks that copies share until one side writes: {@link #fork}
 * costs one pointer per chunk instead of the whole array, and each side then copies only the chunks
 * it changes. This is what lets the look-ahead policy clone a pod's KV cache for every probe. Not
 * thread-safe; a fork may be used by another thread only after a happens-before edge.
 */
final class CowInts {
  static final int SHIFT = 9;
  private static final int CHUNK = 1 << SHIFT;
  private static final int MASK = CHUNK - 1;

  private final int length;
  private final int[][] chunks;

  /** Whether this instance alone holds chunk {@code c} and may write it in place. */
  private final boolean[] owned;

  CowInts(int length) {
    this.length = length;
    int n = (length + MASK) >>> SHIFT;
    chunks = new int[n][];
    owned = new boolean[n];
    for (int c = 0; c < n; c++) {
      chunks[c] = new int[Math.min(CHUNK, length - (c << SHIFT))];
      owned[c] = true;
    }
  }

  private CowInts(CowInts o) {
    length = o.length;
    chunks = o.chunks.clone();
    owned = new boolean[chunks.length];
    Arrays.fill(o.owned, false);
  }

  /**
   * A copy that shares every chunk with this one until either writes it. Writes to this instance
   * too (it gives up sole ownership of its chunks).
   */
  CowInts fork() {
    return new CowInts(this);
  }

  int length() {
    return length;
  }

  int get(int i) {
    return chunks[i >>> SHIFT][i & MASK];
  }

  void set(int i, int value) {
    writable(i >>> SHIFT)[i & MASK] = value;
  }

  /** Adds {@code delta} to element {@code i} and returns the new value. */
  int add(int i, int delta) {
    int[] chunk = writable(i >>> SHIFT);
    return chunk[i & MASK] += delta;
  }

  private int[] writable(int c) {
    if (!owned[c]) {
      chunks[c] = chunks[c].clone();
      owned[c] = true;
    }
    return chunks[c];
  }
}
