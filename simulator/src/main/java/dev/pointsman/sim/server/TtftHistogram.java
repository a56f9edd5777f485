package dev.pointsman.sim.server;

/** A cumulative histogram with vLLM's TTFT buckets (seconds). Not thread-safe. */
final class TtftHistogram {
  static final double[] BOUNDS = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0, 160.0, 640.0, 2560.0
  };

  private final long[] counts = new long[BOUNDS.length];
  private long count;
  private double sum;

  void observe(double seconds) {
    for (int i = 0; i < BOUNDS.length; i++) {
      if (seconds <= BOUNDS[i]) {
        counts[i]++;
      }
    }
    count++;
    sum += seconds;
  }

  /** Observations at most {@code BOUNDS[i]} (cumulative, as exposed). */
  long cumulative(int i) {
    return counts[i];
  }

  long count() {
    return count;
  }

  double sum() {
    return sum;
  }
}
