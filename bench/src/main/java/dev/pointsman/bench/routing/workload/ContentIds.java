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
}
