package dev.pointsman.sim.server;

/**
 * A cumulative latency histogram (seconds) with fixed bucket bounds. Not thread-safe.
 *
 * <p>Bounds are the defaults of vLLM's V1 metrics, which TensorRT-LLM's collector adopted ({@code
 * vllm/v1/metrics/loggers.py}, {@code tensorrt_llm/metrics/collector.py}).
 */
final class LatencyHistogram {
  /** Time to first token. */
  static final double[] TTFT_BOUNDS = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0, 160.0, 640.0, 2560.0
  };

  /** End-to-end request latency. */
  static final double[] E2E_BOUNDS = {
    0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0,
    480.0, 960.0, 1920.0, 7680.0
  };

  private final double[] bounds;
  private final long[] counts;
  private long count;
  private double sum;

  LatencyHistogram(double[] bounds) {
    this.bounds = bounds.clone();
    this.counts = new long[bounds.length];
  }

  /** A histogram with the same bounds and no observations. */
  LatencyHistogram emptyCopy() {
    return new LatencyHistogram(bounds);
  }

  void observe(double seconds) {
    for (int i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        counts[i]++;
      }
    }
    count++;
    sum += seconds;
  }

  int buckets() {
    return bounds.length;
  }

  double bound(int i) {
    return bounds[i];
  }

  /** Observations at most {@code bound(i)} (cumulative, as exposed). */
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
