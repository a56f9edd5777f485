package dev.pointsman.bench.routing.policy;

import java.util.random.RandomGenerator;

/**
 * How Envoy spreads ext_proc streams over picker replicas, as the shipped configuration sets it up
 * ({@code deploy/envoy/envoy.yaml}: the picker's headless Service as a {@code STRICT_DNS} cluster,
 * {@code lb_policy: LEAST_REQUEST}). Each HTTP request holds one ext_proc stream for its whole
 * life, so a stream is one active request on that cluster. Each request reaches one of the Envoy
 * replicas at random (the cloud load balancer in front of them); that Envoy draws two picker
 * replicas at random and takes the one with fewer of its own open streams, the first drawn on a tie
 * (Envoy's least-request balancer with equal weights and its default {@code choice_count} of 2).
 * Envoys do not share their counts.
 */
final class EnvoyBalancer {
  /** Envoy's default {@code choice_count} for {@code LEAST_REQUEST}. */
  static final int CHOICE_COUNT = 2;

  private final int pickers;
  private final int[][] open;
  private final RandomGenerator random;

  EnvoyBalancer(int envoys, int pickers, RandomGenerator random) {
    if (envoys < 1 || pickers < 1) {
      throw new IllegalArgumentException(
          "envoys " + envoys + ", pickers " + pickers + " (expected >= 1 each)");
    }
    this.pickers = pickers;
    this.open = new int[envoys][pickers];
    this.random = random;
  }

  /** Opens a stream for a new request; returns {@code envoy * pickers + picker}. */
  int open() {
    int envoy = open.length == 1 ? 0 : random.nextInt(open.length);
    int best = -1;
    for (int i = 0; i < CHOICE_COUNT; i++) {
      int candidate = pickers == 1 ? 0 : random.nextInt(pickers);
      if (best < 0 || open[envoy][candidate] < open[envoy][best]) {
        best = candidate;
      }
    }
    open[envoy][best]++;
    return envoy * pickers + best;
  }

  /** The picker replica of a stream {@link #open()} returned. */
  int picker(int stream) {
    return stream % pickers;
  }

  /** Closes a stream {@link #open()} returned. */
  void close(int stream) {
    int[] counts = open[stream / pickers];
    int picker = stream % pickers;
    if (counts[picker] <= 0) {
      throw new IllegalStateException("stream " + stream + " closed twice");
    }
    counts[picker]--;
  }

  /** Open streams from {@code envoy} to {@code picker}. */
  int open(int envoy, int picker) {
    return open[envoy][picker];
  }
}
