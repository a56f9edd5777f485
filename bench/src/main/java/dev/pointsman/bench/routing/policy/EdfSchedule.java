package dev.pointsman.bench.routing.policy;

import java.util.function.IntToDoubleFunction;

/**
 * Envoy's earliest-deadline-first schedule for weighted balancers ({@code EdfScheduler}): every
 * host holds a deadline; a pick takes the host with the earliest one (the lowest index on a tie),
 * moves the clock to it and gives that host a new deadline one period of {@code 1 ÷ weight} later,
 * its weight read at that moment. Over many picks each host is chosen in proportion to its weight.
 * Only the picked host's weight is read again, so a weight that changes between picks (Envoy's
 * least-request weights fall with active requests) takes effect at that host's next pick.
 */
final class EdfSchedule {
  private final double[] deadline;
  private double now;

  /** Starts every host one period after time 0, at its initial weight. */
  EdfSchedule(int hosts, IntToDoubleFunction weight) {
    deadline = new double[hosts];
    for (int i = 0; i < hosts; i++) {
      deadline[i] = 1 / positive(weight.applyAsDouble(i), i);
    }
  }

  /** The next host; it is rescheduled at its weight now. */
  int pick(IntToDoubleFunction weight) {
    int best = 0;
    for (int i = 1; i < deadline.length; i++) {
      if (deadline[i] < deadline[best]) {
        best = i;
      }
    }
    now = deadline[best];
    deadline[best] = now + 1 / positive(weight.applyAsDouble(best), best);
    return best;
  }

  private static double positive(double w, int host) {
    if (!(w > 0) || Double.isInfinite(w)) {
      throw new IllegalArgumentException(
          "weight of host " + host + ": " + w + " (expected a finite number > 0)");
    }
    return w;
  }
}
