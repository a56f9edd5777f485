package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Filter;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.util.List;

/**
 * {@code tpot-slo-filter}: for a request that carries a time-per-output-token objective ({@code
 * x-slo-tpot-ms}), or any request when the pool declares one ({@code objectiveMs}), keeps only
 * endpoints predicted to meet it (the learned TPOT model over the endpoint's GPU, running batch, KV
 * cache and queued prefill), when any is; otherwise keeps everything, because a slow answer beats
 * none. The request's own objective wins over the pool's. Without either, requests pass untouched.
 */
public final class TpotSloFilter implements Filter {
  public static final String TYPE = "tpot-slo-filter";

  private final double objectiveSeconds;

  /** A filter for requests that carry their own objective only. */
  public TpotSloFilter() {
    this(Double.NaN);
  }

  /**
   * @param objectiveSeconds the objective for requests that carry none, or NaN for none
   */
  public TpotSloFilter(double objectiveSeconds) {
    if (!Double.isNaN(objectiveSeconds) && !(objectiveSeconds > 0 && objectiveSeconds < 3600)) {
      throw new IllegalArgumentException(
          "objectiveMs: " + objectiveSeconds * 1000 + " (expected a number of ms in (0, 3600000))");
    }
    this.objectiveSeconds = objectiveSeconds;
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public List<Candidate> filter(
      SchedulingRequest request, List<Candidate> candidates, CycleState context) {
    double objective = request.hasTpotSlo() ? request.tpotSloSeconds() : objectiveSeconds;
    if (Double.isNaN(objective)) {
      return candidates;
    }
    return Filter.keepIfAny(candidates, c -> context.predictTpotSeconds(c, request) <= objective);
  }
}
