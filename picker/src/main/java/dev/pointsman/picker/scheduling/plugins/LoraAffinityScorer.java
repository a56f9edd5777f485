package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code lora-affinity-scorer}: for a LoRA request, prefers an endpoint where the adapter is
 * resident (1.0): it has running requests there, or it is among the last few distinct adapters the
 * picker sent there (vLLM's metric does not list loaded but idle adapters, and a server keeps its
 * most recently used ones loaded). Then one with a free adapter slot (0.8), then one where it is
 * waiting to load (0.6), then none (0). Base-model requests score 1 everywhere.
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
      out[i] = adapter == null ? 1.0 : affinity(candidates.get(i), adapter, context);
    }
  }

  /** Adapters assumed resident when the endpoint does not say how many slots it has. */
  static final int DEFAULT_SLOTS = 4;

  static double affinity(Candidate c, String adapter, CycleState context) {
    return context.loraAffinity(c.address(), () -> compute(c, adapter, context));
  }

  private static double compute(Candidate c, String adapter, CycleState context) {
    EndpointMetrics m = c.metrics();
    int slots = m.maxLoras() < 0 ? DEFAULT_SLOTS : m.maxLoras();
    Set<String> recent = context.recentAdapters(c.address(), slots);
    if (m.runningAdapters().contains(adapter) || recent.contains(adapter)) {
      return 1.0;
    }
    Set<String> occupied = new HashSet<>(m.runningAdapters());
    occupied.addAll(m.waitingAdapters());
    occupied.addAll(recent);
    if (m.maxLoras() < 0 || occupied.size() < m.maxLoras()) {
      return 0.8;
    }
    if (m.waitingAdapters().contains(adapter)) {
      return 0.6;
    }
    return 0.0;
  }
}
