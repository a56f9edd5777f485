package dev.pointsman.bench.routing.policy;

import java.util.random.RandomGenerator;

/**
 * The SGLang model gateway's default reliability, as its router runs it for every worker: a request
 * a worker refuses before answering (connection refused, or a retryable status) is sent again after
 * an exponential backoff, choosing the worker again each time, up to {@link #MAX_RETRIES} times;
 * and a per-worker circuit breaker keeps a worker out of the choice after {@link #FAILURES_TO_OPEN}
 * failures in a row, for {@link #OPEN_MS}, then lets requests through again (half-open) and closes
 * after {@link #SUCCESSES_TO_CLOSE} successes, reopening on a failure. Defaults from the SGLang
 * model gateway's documentation (sgl-project/sglang, docs/advanced_features/sgl_model_gateway.md,
 * "Reliability and Flow Control": {@code --retry-max-retries} 5, {@code --retry-initial-backoff-ms}
 * 50, {@code --retry-max-backoff-ms} 5000, {@code --retry-backoff-multiplier} 2.0, {@code
 * --retry-jitter-factor} 0.1, {@code --cb-failure-threshold} 5, {@code --cb-success-threshold} 2,
 * {@code --cb-timeout-duration-secs} 30). Simplified: failures are counted in a row without the 60
 * s counting window, and a response counts as a success when its first byte arrives.
 */
final class SglangResilience {
  static final int MAX_RETRIES = 5;
  static final double INITIAL_BACKOFF_MS = 50;
  static final double MAX_BACKOFF_MS = 5_000;
  static final double BACKOFF_MULTIPLIER = 2.0;
  static final double JITTER = 0.1;
  static final int FAILURES_TO_OPEN = 5;
  static final int SUCCESSES_TO_CLOSE = 2;
  static final double OPEN_MS = 30_000;

  private final FleetView fleet;
  private final RandomGenerator random;
  private final int[] failures;
  private final int[] successes;
  private final double[] openUntil;
  private final boolean[] halfOpen;

  SglangResilience(FleetView fleet, RandomGenerator random) {
    this.fleet = fleet;
    this.random = random;
    int n = fleet.size();
    failures = new int[n];
    successes = new int[n];
    openUntil = new double[n];
    halfOpen = new boolean[n];
  }

  /** Whether {@code pod}'s circuit is open now: the router does not choose it. */
  boolean open(int pod) {
    return fleet.nowMs() < openUntil[pod];
  }

  /** A response from {@code pod} began. */
  void success(int pod) {
    failures[pod] = 0;
    if (halfOpen[pod] && ++successes[pod] >= SUCCESSES_TO_CLOSE) {
      halfOpen[pod] = false;
      successes[pod] = 0;
    }
  }

  /**
   * {@code pod} refused a request before answering; returns the milliseconds after which the router
   * sends it again, or NaN when {@code retriesSoFar} has used up the retries (the client gets the
   * error).
   */
  double failure(int pod, int retriesSoFar) {
    if (halfOpen[pod] && !open(pod)) {
      trip(pod); // a failure while half-open opens the circuit again at once
    } else if (!open(pod) && ++failures[pod] >= FAILURES_TO_OPEN) {
      trip(pod);
    }
    if (retriesSoFar >= MAX_RETRIES) {
      return Double.NaN;
    }
    double backoff =
        Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * Math.pow(BACKOFF_MULTIPLIER, retriesSoFar));
    return backoff * (1 + JITTER * (2 * random.nextDouble() - 1));
  }

  private void trip(int pod) {
    failures[pod] = 0;
    successes[pod] = 0;
    halfOpen[pod] = true; // once the open time is up
    openUntil[pod] = fleet.nowMs() + OPEN_MS;
  }
}
