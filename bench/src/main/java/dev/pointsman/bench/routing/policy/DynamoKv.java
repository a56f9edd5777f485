package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.random.RandomGenerator;

/**
 * {@code dynamo-kv}: Dynamo's KV router with its defaults ({@code --router-mode kv}; docs "KV Cache
 * Routing" and {@code lib/kv-router/src/scheduling/selector.rs}): per worker, in KV blocks, {@code
 * logit = overlap_score_weight × potential_prefill_blocks + potential_active_blocks} with {@code
 * overlap_score_weight} 1.0 and temperature 0 (the lowest logit wins, ties at random). {@code
 * potential_prefill_blocks} is the prefill the worker would have with this request: the prompt
 * tokens it has pending before their first token plus this prompt's uncached tokens, ÷ the block
 * size. {@code potential_active_blocks} is the blocks its active requests hold plus this request's
 * new ones. The overlap is engine-exact: by default Dynamo's indexer follows the engines' KV events
 * (blocks stored and removed), so the bench reads each pod's prefix cache ({@link
 * FleetView#cachedPromptTokensFromKvEvents}), in the engine's own tokens and 16-token blocks.
 * Pending and active work is the router's own accounting of what it sent (prompt tokens; the tokens
 * each request generates are not counted). On pods that offload KV blocks to CPU memory, the blocks
 * that follow the GPU overlap there are credited at {@code --router-host-cache-hit-weight} 0.75
 * (its default) in the prefill cost; they still take GPU blocks once loaded.
 */
final class DynamoKv implements RoutingPolicy {
  /** Dynamo's default {@code --kv-overlap-score-weight}. */
  static final double OVERLAP_SCORE_WEIGHT = 1.0;

  /** Dynamo's default {@code --router-host-cache-hit-weight}. */
  static final double HOST_CACHE_HIT_WEIGHT = 0.75;

  private final FleetView fleet;
  private final RandomGenerator random;
  private final OwnLoad load;

  DynamoKv(FleetView fleet, RandomGenerator random) {
    this.fleet = fleet;
    this.random = random;
    this.load = new OwnLoad(fleet.size());
  }

  @Override
  public String name() {
    return "dynamo-kv";
  }

  @Override
  public Route route(BenchRequest r) {
    int n = fleet.size();
    int prompt = r.sim().promptTokens();
    double[] cost = new double[n];
    for (int i = 0; i < n; i++) {
      if (!fleet.inEndpoints(i)) {
        // its discovery no longer lists the worker
        cost[i] = Double.POSITIVE_INFINITY;
        continue;
      }
      double block = fleet.config(i).gpu().blockSize();
      int cached = Math.min(prompt, fleet.cachedPromptTokensFromKvEvents(r, i));
      double host =
          HOST_CACHE_HIT_WEIGHT
              * Math.min(prompt - cached, fleet.offloadedPromptTokensFromKvEvents(r, i));
      double prefill = (load.prefillTokens(i) + prompt - cached - host) / block;
      double active = load.liveTokens(i) / block + Math.ceil((prompt - cached) / block);
      cost[i] = OVERLAP_SCORE_WEIGHT * prefill + active;
    }
    int pod = Ties.argMin(cost, random);
    if (pod < 0) {
      return Route.failed();
    }
    load.assign(r, pod);
    return Route.to(pod);
  }

  @Override
  public void onFirstToken(BenchRequest request, int pod) {
    load.firstToken(request, pod);
  }

  @Override
  public void onFinish(BenchRequest request, int pod) {
    load.finish(request, pod);
  }
}
