package dev.pointsman.sim.engine;

import java.util.Arrays;

/**
 * A fixed-capacity open-addressing map from non-zero {@code long} keys to {@code int} values, with
 * linear probing and backward-shift deletion. Not thread-safe.
 */
final class LongIntMap {
  private final long[] keys;
  private final int[] values;
  private final int mask;
  private int size;

  /** A map able to hold {@code maxEntries} entries at load factor at most 0.5. */
  LongIntMap(int maxEntries) {
    int cap = Integer.highestOneBit(Math.max(4, maxEntries * 2 - 1)) << 1;
    keys = new long[cap];
    values = new int[cap];
    mask = cap - 1;
  }

  private LongIntMap(LongIntMap other) {
    keys = other.keys.clone();
    values = other.values.clone();
    mask = other.mask;
    size = other.size;
  }

  LongIntMap copy() {
    return new LongIntMap(this);
  }

  int size() {
    return size;
  }

  /** The value of {@code key}, or -1. */
  int get(long key) {
    for (int i = slot(key); ; i = (i + 1) & mask) {
      long k = keys[i];
      if (k == key) {
        return values[i];
      }
      if (k == 0) {
        return -1;
      }
    }
  }

  /** Puts {@code key} if absent; returns whether it was added. */
  boolean putIfAbsent(long key, int value) {
    int i = slot(key);
    while (keys[i] != 0) {
      if (keys[i] == key) {
        return false;
      }
      i = (i + 1) & mask;
    }
    if (size * 2 >= keys.length) {
      throw new IllegalStateException("map full: " + size + " entries");
    }
    keys[i] = key;
    values[i] = value;
    size++;
    return true;
  }

  /** Removes {@code key} if present. */
  void remove(long key) {
    int i = slot(key);
    while (keys[i] != key) {
      if (keys[i] == 0) {
        return;
      }
      i = (i + 1) & mask;
    }
    size--;
    int gap = i;
    for (int j = (gap + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
      int home = slot(keys[j]);
      boolean movable = gap <= j ? (home <= gap || home > j) : (home <= gap && home > j);
      if (movable) {
        keys[gap] = keys[j];
        values[gap] = values[j];
        gap = j;
      }
    }
    keys[gap] = 0;
  }

  void clear() {
    Arrays.fill(keys, 0);
    size = 0;
  }

  private int slot(long key) {
    return (int) BlockHashes.mix(key) & mask;
  }
}
