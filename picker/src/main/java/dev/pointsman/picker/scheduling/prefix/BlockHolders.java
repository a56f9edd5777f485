package dev.pointsman.picker.scheduling.prefix;

import it.unimi.dsi.fastutil.HashCommon;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.Arrays;

/**
 * Which endpoints hold each block key: the shared part of the approximate {@link PrefixIndex} and
 * the index built from the engines' KV events. Thread-safe.
 *
 * <p>Keys are kept unboxed in open-addressing maps, one per stripe of the key space, each guarded
 * by its own monitor: a lookup or an update locks one stripe briefly. A key's holders are an array
 * that is never modified once stored (an update stores a new one), so a reader may keep it after
 * the lock is released. Most blocks have a single holder; that array is the holder's own {@link
 * #self} array, shared by every key it alone holds, so recording a block allocates nothing.
 */
public final class BlockHolders {
  private static final String[] NONE = new String[0];
  private static final int STRIPES = 64;

  private final Stripe[] stripes = new Stripe[STRIPES];

  public BlockHolders() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Stripe();
    }
  }

  /**
   * The one-element array to pass to {@link #add(long, String[])} for {@code address}: callers that
   * record many blocks for one endpoint keep it, so a block held by that endpoint alone costs no
   * array of its own.
   */
  public static String[] self(String address) {
    return new String[] {address};
  }

  /** Records that {@code address} holds {@code key}. */
  public void add(long key, String address) {
    add(key, self(address));
  }

  /**
   * Records that {@code self[0]} holds {@code key}.
   *
   * @param self the holder's {@link #self} array, never modified
   */
  public void add(long key, String[] self) {
    Stripe s = stripe(key);
    synchronized (s) {
      String[] hs = s.map.get(key);
      if (hs == null) {
        s.map.put(key, self);
      } else if (!contains(hs, self[0])) {
        String[] out = Arrays.copyOf(hs, hs.length + 1);
        out[hs.length] = self[0];
        s.map.put(key, out);
      }
    }
  }

  /** Records that {@code address} no longer holds {@code key}. */
  public void remove(long key, String address) {
    Stripe s = stripe(key);
    synchronized (s) {
      String[] hs = s.map.get(key);
      if (hs == null || !contains(hs, address)) {
        return;
      }
      if (hs.length == 1) {
        s.map.remove(key);
        return;
      }
      String[] rest = new String[hs.length - 1];
      int n = 0;
      for (String h : hs) {
        if (!h.equals(address)) {
          rest[n++] = h;
        }
      }
      s.map.put(key, rest);
    }
  }

  /** The endpoints holding {@code key}; empty if none. Not to be modified. */
  public String[] of(long key) {
    Stripe s = stripe(key);
    synchronized (s) {
      String[] hs = s.map.get(key);
      return hs == null ? NONE : hs;
    }
  }

  /** Whether {@code address} holds {@code key}. */
  public boolean holds(long key, String address) {
    return contains(of(key), address);
  }

  /** Distinct keys held by any endpoint. */
  public int size() {
    int n = 0;
    for (Stripe s : stripes) {
      synchronized (s) {
        n += s.map.size();
      }
    }
    return n;
  }

  private Stripe stripe(long key) {
    return stripes[(int) (HashCommon.mix(key) >>> 58)];
  }

  private static boolean contains(String[] hs, String address) {
    for (String h : hs) {
      if (h == address || h.equals(address)) {
        return true;
      }
    }
    return false;
  }

  private static final class Stripe {
    final Long2ObjectOpenHashMap<String[]> map = new Long2ObjectOpenHashMap<>();
  }
}
