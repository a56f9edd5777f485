package dev.pointsman.bench.routing.policy;

/**
 * The static per-pod weights an operator would write into Envoy for a fleet of mixed GPUs: each
 * pod's measured capacity (the bench's calibrated saturation throughput of its GPU type on the
 * scenario's traffic) scaled so the fastest pod gets {@link #MAX}, rounded, at least 1. Envoy takes
 * endpoint {@code load_balancing_weight} as an integer of at least 1 (its docs: the sum of a
 * locality's weights must not exceed 4,294,967,295; 1–128 is the range its examples and most
 * control planes use).
 */
final class EnvoyWeights {
  /** The weight of the fastest pod. */
  static final int MAX = 128;

  private EnvoyWeights() {}

  /** Integer weights for pods of {@code capacity} requests per second each. */
  static int[] of(double[] capacity) {
    double top = 0;
    for (double c : capacity) {
      if (!(c >= 0) || Double.isInfinite(c)) {
        throw new IllegalArgumentException(
            "capacity: " + c + " (expected a finite number >= 0 of requests per second)");
      }
      top = Math.max(top, c);
    }
    int[] out = new int[capacity.length];
    for (int i = 0; i < capacity.length; i++) {
      out[i] = top == 0 ? 1 : (int) Math.max(1, Math.round(MAX * capacity[i] / top));
    }
    return out;
  }

  /** Whether every weight is the same (Envoy then uses its unweighted algorithms). */
  static boolean allEqual(int[] weights) {
    for (int w : weights) {
      if (w != weights[0]) {
        return false;
      }
    }
    return true;
  }
}
