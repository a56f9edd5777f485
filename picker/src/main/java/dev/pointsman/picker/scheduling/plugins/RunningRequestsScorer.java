package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import java.util.List;

/**
 * {@code running-requests-scorer}: prefers smaller running batches, since decode slows as the batch
 * grows. Running requests as scraped, min-max normalised.
 */
public final class RunningRequestsScorer implements Scorer {
  public static final String TYPE = "running-requests-scorer";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    int n = candidates.size();
    double[] running = new double[n];
    for (int i = 0; i < n; i++) {
      running[i] = candidates.get(i).running();
    }
    MinMax.lowerIsBetter(running, n, out);
  }
}
