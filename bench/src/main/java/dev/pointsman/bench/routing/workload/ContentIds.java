package dev.pointsman.bench.routing.workload;

/**
 * Content identities: shared content (a group's system prompt, a document) has a fixed id in its
 * own namespace; everything else gets a fresh id.
 */
final class ContentIds {
  private long next = 1L << 40;

  long fresh() {
    return next++;
  }

  static long shared(int namespace, int partIndex, int index) {
    return ((long) namespace << 32) | ((long) partIndex << 24) | index;
  }

  /** A trace's prefix block {@code id} on replay lap {@code lap}: top bit set, then a hash. */
  static long traceBlock(int lap, long id) {
    long z = id * 0x9E3779B97F4A7C15L + lap;
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return Long.MIN_VALUE | (z ^ (z >>> 33));
  }
}
