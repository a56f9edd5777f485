package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import java.util.List;

/**
 * {@code kv-cache-utilization-scorer}: prefers KV-cache headroom; near full a pod preempts and
 * thrashes. Score is {@code 1 − usage}, where usage includes the prompt tokens the picker sent
 * since the last scrape when the cache's capacity is known.
 */
public final class KvCacheUtilizationScorer implements Scorer {
  public static final String TYPE = "kv-cache-utilization-scorer";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    for (int i = 0; i < candidates.size(); i++) {
      out[i] = 1.0 - usage(candidates.get(i));
    }
  }

  static double usage(Candidate c) {
    double usage = c.metrics().kvUsageOrZero();
    long capacity = c.metrics().kvCapacityTokens();
    if (capacity > 0) {
      usage += (double) c.load().pendingTokens() / capacity;
    }
    return Math.min(1.0, usage);
  }
}
