package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import java.util.List;

/**
 * {@code prefix-cache-scorer}: prefers the endpoint that probably holds the longest prefix of this
 * prompt. Score is matched blocks ÷ prompt blocks, from the picker's prefix index.
 */
public final class PrefixCacheScorer implements Scorer {
  public static final String TYPE = "prefix-cache-scorer";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    for (int i = 0; i < candidates.size(); i++) {
      out[i] = context.prefixHitFraction(i);
    }
  }
}
