package dev.pointsman.picker.scrape;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;

/**
 * The metric names a parser keeps, looked up by their bytes in the exposition without building a
 * string: a hit returns the one shared name string, a miss allocates nothing. Immutable and
 * thread-safe.
 */
final class NameTable {

  private final byte[][] names;
  private final String[] strings;
  private final int mask;

  NameTable(Set<String> wanted) {
    int size = Integer.highestOneBit(Math.max(4, wanted.size() * 4) - 1) << 1;
    names = new byte[size][];
    strings = new String[size];
    mask = size - 1;
    for (String name : wanted) {
      byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
      int slot = hash(bytes, 0, bytes.length) & mask;
      while (names[slot] != null) {
        slot = (slot + 1) & mask;
      }
      names[slot] = bytes;
      strings[slot] = name;
    }
  }

  /** The wanted name spelled by {@code text[from, to)}, or null. */
  String find(byte[] text, int from, int to) {
    int slot = hash(text, from, to) & mask;
    for (byte[] name; (name = names[slot]) != null; slot = (slot + 1) & mask) {
      if (Arrays.equals(name, 0, name.length, text, from, to)) {
        return strings[slot];
      }
    }
    return null;
  }

  private static int hash(byte[] b, int from, int to) {
    int h = to - from;
    for (int i = from; i < to; i++) {
      h = 31 * h + b[i];
    }
    return h ^ (h >>> 16);
  }
}
