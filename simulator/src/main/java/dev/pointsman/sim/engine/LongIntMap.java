package dev.pointsman.sim.engine;

/**
 * A fixed-capacity open-addressing map from non-zero {@code long} keys to {@code int} values, with
 * linear probing and backward-shift deletion. A {@link #copy} shares storage with the original
 * until either writes (see {@link CowInts}). Not thread-safe.
 */
final class LongIntMap {
  private final CowLongs keys;
  private final CowInts values;
  private final int mask;
  private int size;

  /** A map able to hold {@code maxEntries} entries at load factor at most 0.5. */
  LongIntMap(int maxEntries) {
    int cap = Integer.highestOneBit(Math.max(4, maxEntries * 2 - 1)) << 1;
    keys = new CowLongs(cap);
    values = new CowInts(cap);
    mask = cap - 1;
  }

  private LongIntMap(LongIntMap other) {
    keys = other.keys.fork();
    values = other.values.fork();
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
      long k = keys.get(i);
      if (k == key) {
        return values.get(i);
      }
      if (k == 0) {
        return -1;
      }
    }
  }

  /** Puts {@code key} if absent; returns whether it was added. */
  boolean putIfAbsent(long key, int value) {
    int i = slot(key);
    while (keys.get(i) != 0) {
      if (keys.get(i) == key) {
        return false;
      }
      i = (i + 1) & mask;
    }
    if (size * 2 >= keys.length()) {
      throw new IllegalStateException("map full: " + size + " entries");
    }
    keys.set(i, key);
    values.set(i, value);
    size++;
    return true;
  }

  /** Removes {@code key} if present. */
  void remove(long key) {
    int i = slot(key);
    while (keys.get(i) != key) {
      if (keys.get(i) == 0) {
        return;
      }
      i = (i + 1) & mask;
    }
    size--;
    int gap = i;
    for (int j = (gap + 1) & mask; keys.get(j) != 0; j = (j + 1) & mask) {
      int home = slot(keys.get(j));
      boolean movable = gap <= j ? (home <= gap || home > j) : (home <= gap && home > j);
      if (movable) {
        keys.set(gap, keys.get(j));
        values.set(gap, values.get(j));
        gap = j;
      }
    }
    keys.set(gap, 0);
  }

  private int slot(long key) {
    return (int) BlockHashes.mix(key) & mask;
  }
}
