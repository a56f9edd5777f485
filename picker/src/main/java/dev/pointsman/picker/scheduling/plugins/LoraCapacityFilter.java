package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Filter;
import dev.pointsman.picker.scheduling.LoraState;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.util.List;

/**
 * {@code lora-capacity-filter}: for a LoRA request, first drops endpoints whose {@code /v1/models}
 * does not list the adapter (they would answer 404), when any endpoint lists it; then drops those
 * where it could be loaded only after another adapter's requests drain (every slot holds an adapter
 * with live requests), when any other endpoint remains. Each step keeps everything when it would
 * leave nothing: an adapter must be served somewhere, and a server that resolves adapters on demand
 * can load one it does not list yet. Endpoints where it is resident, loading, or loadable into a
 * free slot or one held by an idle adapter stay.
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
    List<Candidate> listed =
        Filter.keepIfAny(
            candidates,
            c -> LoraAffinityScorer.state(c, request.adapter(), context) != LoraState.UNLISTED);
    return Filter.keepIfAny(
        listed, c -> !LoraAffinityScorer.state(c, request.adapter(), context).waitsForSlot());
  }
}
