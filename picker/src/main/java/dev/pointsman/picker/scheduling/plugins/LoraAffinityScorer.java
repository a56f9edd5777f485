package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import java.util.List;

/**
 * {@code lora-affinity-scorer}: for a LoRA request, prefers an endpoint with the adapter active
 * (1.0), then one with a free adapter slot (0.8), then one where it is already waiting to load
 * (0.6), then none (0). Base-model requests score 1 everywhere.
 */
public final class LoraAffinityScorer implements Scorer {
  public static final String TYPE = "lora-affinity-scorer";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    String adapter = request.adapter();
    for (int i = 0; i < candidates.size(); i++) {
      out[i] = adapter == null ? 1.0 : affinity(candidates.get(i).metrics(), adapter);
    }
  }

  static double affinity(EndpointMetrics m, String adapter) {
    if (m.runningAdapters().contains(adapter)) {
      return 1.0;
    }
    int used = m.runningAdapters().size();
    if (!m.waitingAdapters().isEmpty()) {
      for (String waiting : m.waitingAdapters()) {
        if (!m.runningAdapters().contains(waiting)) {
          used++; // an adapter with both running and waiting requests holds one slot, not two
        }
      }
    }
    if (m.maxLoras() < 0 || used < m.maxLoras()) {
      return 0.8;
    }
    if (m.waitingAdapters().contains(adapter)) {
      return 0.6;
    }
    return 0.0;
  }
}
