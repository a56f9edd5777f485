package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Filter;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.util.List;

/**
 * {@code lora-capacity-filter}: for a LoRA request, drops endpoints where the adapter could be
 * loaded only after another adapter's requests drain (every slot holds an adapter with live
 * requests), when any other endpoint exists; otherwise keeps everything (an adapter must be served
 * somewhere). Endpoints where it is resident, loading, or loadable into a free slot or one held by
 * an idle adapter stay.
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
    return Filter.keepIfAny(
        candidates, c -> !LoraAffinityScorer.state(c, request.adapter(), context).waitsForSlot());
  }
}
