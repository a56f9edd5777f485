package dev.pointsman.bench.routing.policy;

/**
 * Envoy's outlier detection as an operator turns it on for a cluster ({@code outlier_detection: {}}
 * keeps every field's default), for the consecutive-5xx rule the bench can trip: a request refused
 * by a pod that is down, or reset by its restart, is a 503 to Envoy (a local-origin failure,
 * counted with the upstream's 5xx while {@code split_external_local_origin_errors} is false). After
 * {@link #CONSECUTIVE_5XX} of them in a row a pod is ejected for {@link #BASE_EJECTION_MS} times
 * the number of times it has been ejected (at most {@link #MAX_EJECTION_MS}); a success ends a run.
 * At most {@link #MAX_EJECTION_PERCENT}% of the pods are ejected at once, and at least one may be.
 * Simplified: an ejected pod returns the moment its time is up (Envoy checks at its 10 s interval),
 * and the multiplier is never decreased. Source: Envoy's {@code outlier_detection.proto} (v1.27 to
 * latest) and its outlier detection architecture overview.
 */
final class OutlierDetection {
  static final int CONSECUTIVE_5XX = 5;
  static final double BASE_EJECTION_MS = 30_000;
  static final double MAX_EJECTION_MS = 300_000;
  static final int MAX_EJECTION_PERCENT = 10;

  private final FleetView fleet;
  private final int[] consecutive;
  private final int[] ejections;
  private final double[] ejectedUntil;

  OutlierDetection(FleetView fleet) {
    this.fleet = fleet;
    int n = fleet.size();
    consecutive = new int[n];
    ejections = new int[n];
    ejectedUntil = new double[n];
  }

  /** Whether {@code pod} is ejected now. */
  boolean ejected(int pod) {
    return fleet.nowMs() < ejectedUntil[pod];
  }

  /** Whether any pod is ejected now. */
  boolean anyEjected() {
    double now = fleet.nowMs();
    for (double until : ejectedUntil) {
      if (now < until) {
        return true;
      }
    }
    return false;
  }

  /** A response from {@code pod} began: its run of failures ends. */
  void success(int pod) {
    consecutive[pod] = 0;
  }

  /** A request to {@code pod} failed with a 5xx before any response. */
  void failure(int pod) {
    if (++consecutive[pod] < CONSECUTIVE_5XX || ejected(pod)) {
      return;
    }
    consecutive[pod] = 0;
    int limit = Math.max(1, consecutive.length * MAX_EJECTION_PERCENT / 100);
    int now = 0;
    for (int i = 0; i < consecutive.length; i++) {
      now += ejected(i) ? 1 : 0;
    }
    if (now >= limit) {
      return;
    }
    ejections[pod]++;
    ejectedUntil[pod] =
        fleet.nowMs() + Math.min(MAX_EJECTION_MS, BASE_EJECTION_MS * ejections[pod]);
  }
}
