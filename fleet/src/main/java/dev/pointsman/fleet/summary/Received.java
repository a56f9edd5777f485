package dev.pointsman.fleet.summary;

import dev.pointsman.picker.summary.ClusterSummary;
import dev.pointsman.picker.summary.PoolSummary;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cluster's summary as the fleet accepted it, with each pool's hot prefix digests in a set for
 * per-request lookups, and the requests the fleet has sent the cluster since.
 *
 * <p>Shared mutable state, named: {@code sent}, counted by request threads, read per request; it
 * starts at 0 with each new summary, which reflects what was sent before it.
 *
 * @param summary what the cluster's picker published
 * @param hot each pool's hot prefix digests
 * @param sent requests sent to the cluster since this summary arrived
 */
public record Received(ClusterSummary summary, Map<String, Set<Long>> hot, AtomicLong sent) {
  public Received {
    Objects.requireNonNull(summary, "summary");
    hot = Map.copyOf(hot);
    Objects.requireNonNull(sent, "sent");
  }

  /**
   * Checks a summary read from cluster {@code expected} and indexes it.
   *
   * @throws IllegalArgumentException when it is of another version or another cluster
   */
  public static Received accept(String expected, ClusterSummary summary) {
    if (summary.version() != ClusterSummary.VERSION) {
      throw new IllegalArgumentException(
          "summary version "
              + summary.version()
              + " (expected "
              + ClusterSummary.VERSION
              + "; upgrade the older side)");
    }
    if (!summary.cluster().equals(expected)) {
      throw new IllegalArgumentException(
          "summary of cluster '"
              + summary.cluster()
              + "' (expected '"
              + expected
              + "': the picker's summary.cluster must equal the fleet's cluster name)");
    }
    Map<String, Set<Long>> hot = new HashMap<>();
    for (PoolSummary p : summary.pools()) {
      hot.put(p.pool(), Set.copyOf(new HashSet<>(p.hotPrefixes())));
    }
    return new Received(summary, hot, new AtomicLong());
  }

  /**
   * How many of {@code chain}'s leading blocks {@code pool} holds as hot: the deepest index whose
   * digest it advertises, plus one; 0 for none.
   */
  public int prefixDepth(String pool, long[] chain) {
    Set<Long> set = hot.get(pool);
    if (set == null || set.isEmpty()) {
      return 0;
    }
    for (int i = chain.length - 1; i >= 0; i--) {
      if (set.contains(chain[i])) {
        return i + 1;
      }
    }
    return 0;
  }
}
