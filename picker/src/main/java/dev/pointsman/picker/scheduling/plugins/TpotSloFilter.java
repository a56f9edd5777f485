package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Filter;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.util.List;

/**
 * {@code tpot-slo-filter}: for a request that carries a time-per-output-token objective ({@code
 * x-slo-tpot-ms}), keeps only endpoints predicted to meet it (the learned TPOT model over the
 * endpoint's GPU, running batch, KV cache and queued prefill), when any is; otherwise keeps
 * everything, because a slow answer beats none. Requests without an objective pass untouched.
 */
public final class TpotSloFilter implements Filter {
  public static final String TYPE = "tpot-slo-filter";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public List<Candidate> filter(
      SchedulingRequest request, List<Candidate> candidates, CycleState context) {
    if (!request.hasTpotSlo()) {
      return candidates;
    }
    return Filter.keepIfAny(
        candidates, c -> context.predictTpotSeconds(c, request) <= request.tpotSloSeconds());
  }
}
