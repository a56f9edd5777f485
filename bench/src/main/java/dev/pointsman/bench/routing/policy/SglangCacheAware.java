package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * {@code sglang-cache-aware}: SGLang router's cache-aware policy. Load is the router's own count of
 * requests in flight per worker. If the load is imbalanced (max − min &gt; {@code absThreshold} and
 * max &gt; {@code relThreshold} × min) the least-loaded worker wins; else, if the best prefix match
 * rate exceeds {@code cacheThreshold}, the best-matching worker; else the worker with the smallest
 * cached tree. The approximate radix tree per worker is the router's own prefix index of the
 * prompts it sent there (64-character blocks, LRU-bounded, a prompt's tail forgotten before its
 * prefix as the radix tree evicts its least recently used leaves); every routed prompt is inserted
 * into its worker's tree. The router's default retries and circuit breaker ({@link
 * SglangResilience}) come with it: a worker whose circuit is open is left out like one its
 * discovery does not list.
 */
final class SglangCacheAware implements RoutingPolicy {
  private final FleetView fleet;
  private final RandomGenerator random;
  private final double cacheThreshold;
  private final int absThreshold;
  private final double relThreshold;
  private final OwnLoad load;
  private final PrefixIndex tree = new PrefixIndex(PickerApp.PREFIX_BLOCKS_PER_ENDPOINT);
  private final List<String> addresses = new ArrayList<>();
  private final SglangResilience resilience;

  SglangCacheAware(
      FleetView fleet,
      RandomGenerator random,
      double cacheThreshold,
      int absThreshold,
      double relThreshold) {
    this.fleet = fleet;
    this.random = random;
    this.cacheThreshold = cacheThreshold;
    this.absThreshold = absThreshold;
    this.relThreshold = relThreshold;
    this.load = new OwnLoad(fleet.size());
    this.resilience = new SglangResilience(fleet, random);
    for (int i = 0; i < fleet.size(); i++) {
      addresses.add(FleetView.address(i));
    }
  }

  @Override
  public String name() {
    return "sglang-cache-aware";
  }

  @Override
  public Route route(BenchRequest r) {
    int n = fleet.size();
    long[] blocks = Policies.GIE_PREFIX_HASHER.hash(fleet.model(r), fleet.promptText(r));
    // the workers its service discovery lists as ready and whose circuit is not open; the others
    // score +infinity throughout
    boolean[] out = new boolean[n];
    int max = Integer.MIN_VALUE;
    int min = Integer.MAX_VALUE;
    double[] loads = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = !fleet.inEndpoints(i) || resilience.open(i);
      int l = load.liveRequests(i);
      loads[i] = out[i] ? Double.POSITIVE_INFINITY : l;
      if (!out[i]) {
        max = Math.max(max, l);
        min = Math.min(min, l);
      }
    }
    if (max == Integer.MIN_VALUE) {
      return Route.failed();
    }
    int pod;
    if (max - min > absThreshold && max > relThreshold * min) {
      pod = Ties.argMin(loads, random);
    } else {
      int[] matched = tree.match(blocks, addresses);
      double[] negRate = new double[n];
      double bestRate = 0;
      for (int i = 0; i < n; i++) {
        double rate = blocks.length == 0 ? 0 : (double) matched[i] / blocks.length;
        if (out[i]) {
          negRate[i] = Double.POSITIVE_INFINITY;
          continue;
        }
        negRate[i] = -rate;
        bestRate = Math.max(bestRate, rate);
      }
      if (bestRate > cacheThreshold) {
        pod = Ties.argMin(negRate, random);
      } else {
        double[] treeSize = new double[n];
        for (int i = 0; i < n; i++) {
          treeSize[i] = out[i] ? Double.POSITIVE_INFINITY : tree.size(addresses.get(i));
        }
        pod = Ties.argMin(treeSize, random);
      }
    }
    tree.record(addresses.get(pod), blocks);
    load.assign(r, pod);
    return Route.to(pod);
  }

  @Override
  public void onFirstToken(BenchRequest request, int pod) {
    resilience.success(pod);
  }

  @Override
  public void onFinish(BenchRequest request, int pod) {
    load.finish(request, pod);
  }

  @Override
  public double onConnectFailed(BenchRequest request, int pod, int retriesSoFar) {
    load.finish(request, pod);
    return resilience.failure(pod, retriesSoFar);
  }
}
