package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Filter;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lora-capacity-filter}: for a LoRA request, keeps only endpoints that have the adapter
 * active or a free slot for it, when any such endpoint exists; otherwise keeps everything (an
 * adapter must be served somewhere, even at the cost of an eviction).
 */
public final class LoraCapacityFilter implements Filter {
  public static final String TYPE = "lora-capacity-filter";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public List<Candidate> filter(
      SchedulingRequest request, List<Candidate> candidates, CycleState context) {
    if (request.adapter() == null) {
      return candidates;
    }
    List<Candidate> fit = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      if (LoraAffinityScorer.affinity(c, request.adapter(), context) >= 0.8) {
        fit.add(c);
      }
    }
    return fit.isEmpty() ? candidates : fit;
  }
}
