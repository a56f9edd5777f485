package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.scenario.PodGroup;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's GPU mix scaled in whole pods. The fleet of {@code n} pods is the first {@code n} of
 * one fixed order: first one pod of every pool (at least one of each type), then pods in
 * Sainte-Laguë order, the next pod of pool g with k pods having priority (k + ½) ÷ c_g (c_g its
 * count in the scenario; ties to the earlier pool). So fleets are nested (the fleet of n + 1 pods
 * is the fleet of n plus one pod), the scenario's own fleet is the one of its pod count, and k
 * times it is the one of k times that count.
 *
 * @param base the scenario's pools
 */
record FleetScaling(List<PodGroup> base) {
  FleetScaling {
    base = List.copyOf(base);
    if (base.isEmpty()) {
      throw new IllegalArgumentException("base: [] (expected at least one pool)");
    }
  }

  /** The smallest fleet: one pod of each pool. */
  int minPods() {
    return base.size();
  }

  /** The scenario's own fleet size. */
  int basePods() {
    int n = 0;
    for (PodGroup g : base) {
      n += g.count();
    }
    return n;
  }

  /** Pods per pool in the fleet of {@code n} pods. */
  int[] counts(int n) {
    if (n < minPods()) {
      throw new IllegalArgumentException(
          "pods: " + n + " (expected >= " + minPods() + ", one per pool)");
    }
    int[] counts = new int[base.size()];
    java.util.Arrays.fill(counts, 1);
    for (int placed = base.size(); placed < n; placed++) {
      int best = 0;
      for (int g = 1; g < counts.length; g++) {
        if (priority(g, counts[g]) < priority(best, counts[best])) {
          best = g;
        }
      }
      counts[best]++;
    }
    return counts;
  }

  private double priority(int group, int pods) {
    return (pods + 0.5) / base.get(group).count();
  }

  /** The fleet of {@code n} pods: the base pools with their scaled counts. */
  List<PodGroup> fleet(int n) {
    int[] counts = counts(n);
    List<PodGroup> out = new ArrayList<>(base.size());
    for (int g = 0; g < base.size(); g++) {
      PodGroup p = base.get(g);
      out.add(
          new PodGroup(
              p.gpu(),
              counts[g],
              p.maxLoras(),
              p.maxCpuLoras(),
              p.shape(),
              p.kvOffloadGiB(),
              p.kvOffloadGBps()));
    }
    return out;
  }
}
