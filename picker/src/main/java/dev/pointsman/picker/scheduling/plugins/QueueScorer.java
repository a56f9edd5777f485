package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import java.util.List;

/**
 * {@code queue-scorer}: prefers short queues. Waiting requests (scraped, plus the picker's own
 * picks since that scrape), min-max normalised across candidates.
 */
public final class QueueScorer implements Scorer {
  public static final String TYPE = "queue-scorer";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    int n = candidates.size();
    double[] waiting = new double[n];
    for (int i = 0; i < n; i++) {
      waiting[i] = candidates.get(i).waiting();
    }
    MinMax.lowerIsBetter(waiting, n, out);
  }
}
