package dev.pointsman.picker.scheduling;

/**
 * Facts computed once per decision and shared by the filters and scorers of that decision. Not
 * thread-safe: one instance belongs to one decision.
 */
public final class CycleState {
  private final long nowNanos;
  private final long[] promptBlocks;
  private int[] prefixMatches;

  public CycleState(long nowNanos, long[] promptBlocks) {
    this.nowNanos = nowNanos;
    this.promptBlocks = promptBlocks;
  }

  /** The decision time on the picker's monotonic clock. */
  public long nowNanos() {
    return nowNanos;
  }

  /** Chained hashes of the prompt's prefix blocks (may be empty). Do not modify. */
  public long[] promptBlocks() {
    return promptBlocks;
  }

  /** Matched prefix blocks per candidate, as set by the scheduler, or null if not computed. */
  public int[] prefixMatches() {
    return prefixMatches;
  }

  void prefixMatches(int[] matches) {
    this.prefixMatches = matches;
  }

  /** Fraction of this prompt's blocks that candidate {@code i} probably holds, 0–1. */
  public double prefixHitFraction(int i) {
    if (prefixMatches == null || promptBlocks.length == 0) {
      return 0.0;
    }
    return (double) prefixMatches[i] / promptBlocks.length;
  }
}
