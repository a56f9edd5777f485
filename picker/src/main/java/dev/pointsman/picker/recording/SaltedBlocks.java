package dev.pointsman.picker.recording;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Turns the picker's prefix-block hashes into recorded {@code hash_ids}: HMAC-SHA256 of each
 * chained block hash under the installation's salt, the first 63 bits as a non-negative long. The
 * block hashes chain the whole prefix, so equal ids still mean equal prefixes up to that block; the
 * keyed hash keeps anyone without the salt from testing a guessed prompt against the file (the
 * unsalted hashes are the same in every installation and cheap to compute). Not thread-safe: one
 * instance belongs to the writer thread.
 */
public final class SaltedBlocks {
  private final Mac mac;
  private final byte[] buffer = new byte[8];

  public SaltedBlocks(byte[] salt) {
    if (salt.length == 0) {
      throw new IllegalArgumentException("salt: empty (expected at least one byte)");
    }
    try {
      mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(salt, "HmacSHA256"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  public SaltedBlocks(String salt) {
    this(salt.getBytes(StandardCharsets.UTF_8));
  }

  /** The salted ids of the first {@code max} of {@code blocks}. */
  public long[] ids(long[] blocks, int max) {
    int n = Math.min(Math.max(0, max), blocks.length);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      long b = blocks[i];
      for (int k = 0; k < 8; k++) {
        buffer[k] = (byte) (b >>> (56 - 8 * k));
      }
      byte[] d = mac.doFinal(buffer);
      long id = 0;
      for (int k = 0; k < 8; k++) {
        id = (id << 8) | (d[k] & 0xff);
      }
      out[i] = id & Long.MAX_VALUE;
    }
    return out;
  }
}
