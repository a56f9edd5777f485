package dev.pointsman.bench.routing.policy;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Gateway API Inference Extension's {@code lora-affinity-scorer} as it ships (GIE and
 * llm-d-router, {@code scorer/loraaffinity}): from the scraped metrics alone, 1.0 where the
 * request's model is among the running adapters, else 0.8 where fewer distinct adapters are running
 * or waiting than the pod has slots, else 0.6 where it is among the waiting ones, else 0. A
 * base-model request is a model like any other there; the bench adds this scorer only where the
 * scenario has adapters. Not the picker's own {@code lora-affinity-scorer}, which also infers idle
 * resident adapters from its routing history.
 */
final class GieLoraAffinity implements Scorer {
  /** Its weight in the llm-d router's profile with adapters (and GIE's default scorer weight). */
  static final double WEIGHT = 1;

  @Override
  public String type() {
    return "gie-lora-affinity-scorer";
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    for (int i = 0; i < candidates.size(); i++) {
      out[i] = score(request.model(), candidates.get(i).metrics());
    }
  }

  static double score(String model, EndpointMetrics m) {
    boolean active = m.runningAdapters().contains(model);
    boolean waiting = m.waitingAdapters().contains(model);
    Set<String> union = new HashSet<>(m.runningAdapters());
    union.addAll(m.waitingAdapters());
    if (active) {
      return 1.0;
    }
    if (union.size() < m.maxLoras()) {
      return 0.8;
    }
    return waiting ? 0.6 : 0.0;
  }
}
