package dev.pointsman.picker.scheduling.prefix;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which endpoints hold each block key: the shared part of the approximate {@link PrefixIndex} and
 * the index built from the engines' KV events. Thread-safe; each update replaces a key's small
 * array of addresses atomically, so readers see a consistent array without locking.
 */
public final class BlockHolders {
  private static final String[] NONE = new String[0];

  private final ConcurrentHashMap<Long, String[]> holders = new ConcurrentHashMap<>();

  /** Records that {@code address} holds {@code key}. */
  public void add(long key, String address) {
    holders.merge(key, new String[] {address}, BlockHolders::union);
  }

  /** Records that {@code address} no longer holds {@code key}. */
  public void remove(long key, String address) {
    holders.computeIfPresent(
        key,
        (k, hs) -> {
          String[] rest = Arrays.stream(hs).filter(h -> !h.equals(address)).toArray(String[]::new);
          return rest.length == 0 ? null : rest;
        });
  }

  /** The endpoints holding {@code key}; empty if none. Not to be modified. */
  public String[] of(long key) {
    return holders.getOrDefault(key, NONE);
  }

  /** Distinct keys held by any endpoint. */
  public int size() {
    return holders.size();
  }

  private static String[] union(String[] a, String[] b) {
    for (String x : a) {
      if (x.equals(b[0])) {
        return a;
      }
    }
    String[] out = Arrays.copyOf(a, a.length + 1);
    out[a.length] = b[0];
    return out;
  }
}
