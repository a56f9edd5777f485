package dev.pointsman.picker.summary;

import java.util.List;
import java.util.Objects;

/**
 * What one pool of a cluster looks like from afar: the part of a {@link ClusterSummary} the fleet
 * tier chooses on.
 *
 * @param pool the pool's name
 * @param models the served models (canonical names) that route to this pool
 * @param endpoints the pool's endpoints
 * @param readyEndpoints those available to route to now
 * @param predictedTtftMillis the lowest time to first token the picker predicts for a request of
 *     the reference size on any ready endpoint (queue, batch and speed included, no prefix-cache
 *     credit), or -1 when there is no ready endpoint or no prediction
 * @param ttftPerRequestMillis how much that prediction grows with each further request of the
 *     reference size sent to the pool before the next summary: the prefill of one such request on
 *     the fastest endpoint, shared by the ready endpoints (0 when unknown). The fleet tier adds it
 *     for every request it sends between two summaries, so a burst does not all go to the cluster
 *     that looked idle
 * @param saturation the least loaded endpoint's queue as a fraction of the pool's queue threshold
 *     (0 idle, 1 or more full); 1 without a ready endpoint
 * @param saturated whether every ready endpoint is over the pool's saturation thresholds (a
 *     sheddable request would be refused)
 * @param queuedRequests requests waiting in the engines plus those the picker sent that their
 *     metrics do not show yet
 * @param adapters the LoRA adapters resident (running, waiting or listed) on a ready endpoint
 * @param hotPrefixes digests of recently routed prompts' prefixes ({@link HotPrefixes}), newest
 *     first
 * @param predictedTpotMillis the lowest time per output token the picker predicts for a request of
 *     the reference size on any ready endpoint (its decode batch, context and speed); 0 or less
 *     when unknown (a summary from a picker that does not report it)
 */
public record PoolSummary(
    String pool,
    List<String> models,
    int endpoints,
    int readyEndpoints,
    double predictedTtftMillis,
    double ttftPerRequestMillis,
    double saturation,
    boolean saturated,
    int queuedRequests,
    List<String> adapters,
    List<Long> hotPrefixes,
    double predictedTpotMillis) {

  public PoolSummary {
    Objects.requireNonNull(pool, "pool");
    models = models == null ? List.of() : List.copyOf(models);
    adapters = adapters == null ? List.of() : List.copyOf(adapters);
    hotPrefixes = hotPrefixes == null ? List.of() : List.copyOf(hotPrefixes);
    if (readyEndpoints < 0 || endpoints < readyEndpoints) {
      throw new IllegalArgumentException(
          "readyEndpoints: " + readyEndpoints + " (expected 0.." + endpoints + ")");
    }
    if (Double.isNaN(predictedTtftMillis) || Double.isNaN(saturation)) {
      throw new IllegalArgumentException(
          "predictedTtftMillis/saturation: NaN (expected a number; -1 for an unknown TTFT)");
    }
    if (Double.isNaN(predictedTpotMillis)) {
      predictedTpotMillis = -1;
    }
    if (!(ttftPerRequestMillis >= 0)) {
      throw new IllegalArgumentException(
          "ttftPerRequestMillis: " + ttftPerRequestMillis + " (expected >= 0)");
    }
  }

  /** Whether a request can be routed here now: a ready endpoint and a prediction. */
  public boolean serving() {
    return readyEndpoints > 0 && predictedTtftMillis >= 0;
  }
}
