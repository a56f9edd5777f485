package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * {@code dynamo-kv}: Dynamo's KV-router cost, in 16-token blocks: prefill blocks pending on the
 * worker + this prompt's blocks − its cached overlap (floored at 0) + decode blocks; lowest wins.
 * Pending prefill and decode blocks are the router's own accounting (requests sent and not yet at
 * their first token; requests past it); the overlap comes from its own prefix index (one
 * 64-character block ≈ one 16-token KV block). Dynamo learns overlaps from KV events; an index of
 * what was sent is the stale-metrics stand-in.
 */
final class DynamoKv implements RoutingPolicy {
  private static final double BLOCK_TOKENS = 16;

  private final FleetView fleet;
  private final RandomGenerator random;
  private final OwnLoad load;
  private final PrefixIndex index = new PrefixIndex(PickerApp.PREFIX_BLOCKS_PER_ENDPOINT);
  private final List<String> addresses = new ArrayList<>();

  DynamoKv(FleetView fleet, RandomGenerator random) {
    this.fleet = fleet;
    this.random = random;
    this.load = new OwnLoad(fleet.size());
    for (int i = 0; i < fleet.size(); i++) {
      addresses.add(FleetView.address(i));
    }
  }

  @Override
  public String name() {
    return "dynamo-kv";
  }

  @Override
  public Route route(BenchRequest r) {
    int n = fleet.size();
    long[] blocks = PrefixHasher.DEFAULT.hash(fleet.model(r), fleet.promptText(r));
    int[] overlap = index.match(blocks, addresses);
    double newBlocks = Math.ceil(r.sim().promptTokens() / BLOCK_TOKENS);
    double[] cost = new double[n];
    for (int i = 0; i < n; i++) {
      cost[i] =
          load.prefillTokens(i) / BLOCK_TOKENS
              + Math.max(0, newBlocks - overlap[i])
              + load.decodeTokens(i) / BLOCK_TOKENS;
    }
    int pod = Ties.argMin(cost, random);
    index.record(addresses.get(pod), blocks);
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
