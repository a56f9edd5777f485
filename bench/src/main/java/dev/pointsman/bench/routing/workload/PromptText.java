package dev.pointsman.bench.routing.workload;

import dev.pointsman.sim.engine.Segment;
import java.util.List;

/**
 * Renders a prompt's segments as text for the picker's prefix index: token {@code i} of a segment
 * becomes 4 characters that depend only on {@code (contentId, i)}, so equal segment prefixes give
 * equal text prefixes (and different content differs from its first characters). Text is cut at
 * {@code maxChars}: the picker hashes at most 256 blocks of 64 characters, so nothing after that
 * could change a decision.
 */
public final class PromptText {
  /** Characters per token, as the gateway's estimate (characters / 4). */
  public static final int CHARS_PER_TOKEN = 4;

  private static final char[] ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,".toCharArray();

  private final int maxChars;

  public PromptText(int maxChars) {
    if (maxChars < 1) {
      throw new IllegalArgumentException("maxChars: " + maxChars + " (expected >= 1)");
    }
    this.maxChars = maxChars;
  }

  public String render(List<Segment> segments) {
    int tokens = 0;
    for (Segment s : segments) {
      tokens += s.length();
    }
    int len = (int) Math.min(maxChars, (long) tokens * CHARS_PER_TOKEN);
    StringBuilder sb = new StringBuilder(len);
    for (Segment s : segments) {
      for (int i = 0; i < s.length() && sb.length() < len; i++) {
        long h = mix(s.contentId() * 0x9E3779B97F4A7C15L + i);
        for (int c = 0; c < CHARS_PER_TOKEN && sb.length() < len; c++) {
          sb.append(ALPHABET[(int) ((h >>> (c * 8)) & 63)]);
        }
      }
      if (sb.length() >= len) {
        break;
      }
    }
    return sb.toString();
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
