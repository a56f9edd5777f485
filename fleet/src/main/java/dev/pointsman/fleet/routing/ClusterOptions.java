package dev.pointsman.fleet.routing;

import dev.pointsman.fleet.choice.Option;
import dev.pointsman.fleet.summary.Received;
import dev.pointsman.picker.summary.PoolSummary;
import java.util.ArrayList;
import java.util.List;

/**
 * The clusters as one request sees them ({@link Option}s): its round trip from the client's region
 * plus the best predicted time to first token of the cluster's pools that serve its model (and that
 * pool's predicted time per output token), how deep its prefix is hot there, and the cluster's
 * share now. A model no cluster lists (an alias, say) is judged on every pool, and the chosen
 * cluster's picker resolves it. A pool that an InferencePoolImport names ({@link PoolExports})
 * counts only on the clusters that export it.
 */
public final class ClusterOptions {
  private ClusterOptions() {}

  public static List<Option> of(
      List<Cluster> clusters, String model, String region, long[] chain, long nowNanos) {
    return of(clusters, model, region, chain, nowNanos, PoolExports.NONE);
  }

  /** The options, each cluster's pools limited to those {@code exports} allows it to serve. */
  public static List<Option> of(
      List<Cluster> clusters,
      String model,
      String region,
      long[] chain,
      long nowNanos,
      PoolExports exports) {
    // a request without a model is left to the clusters' pickers (their default model)
    boolean listed = false;
    for (int i = 0; model != null && !listed && i < clusters.size(); i++) {
      listed = lists(clusters.get(i).summary().get(), model);
    }
    List<Option> out = new ArrayList<>(clusters.size());
    for (Cluster c : clusters) {
      Received r = c.summary().get();
      double best = -1;
      double tpot = -1;
      int depth = 0;
      if (r != null) {
        for (PoolSummary p : r.summary().pools()) {
          if (!p.serving()
              || (listed && !p.models().contains(model))
              || !exports.allows(p.pool(), c.name())) {
            continue;
          }
          double predicted = p.predictedTtftMillis() + r.sent().get() * p.ttftPerRequestMillis();
          if (best < 0 || predicted < best) {
            best = predicted;
            tpot = p.predictedTpotMillis();
          }
          depth = Math.max(depth, r.prefixDepth(p.pool(), chain));
        }
      }
      double rtt = c.config().rttMillis().get(region);
      out.add(
          new Option(
              c.name(),
              c.config().costTier(),
              c.config().pricePerGpuHour(),
              best < 0 ? -1 : rtt + best,
              depth,
              c.health().share(nowNanos),
              tpot,
              c.config().region()));
    }
    return out;
  }

  private static boolean lists(Received r, String model) {
    if (r != null) {
      for (PoolSummary p : r.summary().pools()) {
        if (p.models().contains(model)) {
          return true;
        }
      }
    }
    return false;
  }
}
