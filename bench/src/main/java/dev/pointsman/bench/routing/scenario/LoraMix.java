package dev.pointsman.bench.routing.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which requests go to LoRA adapters, and which adapters.
 *
 * @param fraction share of requests that name an adapter (default 1)
 * @param weights relative weight per adapter ({@code adapter-0}, {@code adapter-1}, …); or
 * @param adapters the number of adapters, drawn uniformly or with Zipf popularity
 * @param zipf Zipf exponent over {@code adapters} (0 = uniform)
 * @param replicas on how many pods each adapter is registered (its {@code /v1/models} lists it; the
 *     others answer 404), striped so that consecutive adapters land on different pods; null = every
 *     pod
 */
public record LoraMix(
    Double fraction, List<Double> weights, Integer adapters, Double zipf, Integer replicas) {
  public LoraMix {
    fraction = Check.fraction("fraction", fraction, 1.0);
    weights = weights == null ? null : List.copyOf(weights);
    if (weights == null && adapters == null) {
      throw new IllegalArgumentException("weights: missing (expected weights or adapters)");
    }
    if (weights != null) {
      for (int i = 0; i < weights.size(); i++) {
        Check.positive("weights[" + i + "]", weights.get(i), 1);
      }
      adapters = weights.size();
    }
    adapters = Check.atLeast("adapters", adapters, 1, 1);
    zipf = Check.nonNegative("zipf", zipf, 0.0);
    if (replicas != null) {
      replicas = Check.atLeast("replicas", replicas, 1, 1);
    }
  }

  /** Registered on every pod. */
  public LoraMix(Double fraction, List<Double> weights, Integer adapters, Double zipf) {
    this(fraction, weights, adapters, zipf, null);
  }

  /**
   * The adapters registered on each of {@code pods} pods, or null when every adapter is on every
   * pod. Adapter {@code i}'s replica {@code j} is on pod {@code (i × replicas + j) mod pods}.
   */
  public List<Set<String>> placement(int pods) {
    if (replicas == null || replicas >= pods) {
      return null;
    }
    List<Set<String>> out = new ArrayList<>(pods);
    for (int p = 0; p < pods; p++) {
      out.add(new HashSet<>());
    }
    for (int i = 0; i < adapters; i++) {
      for (int j = 0; j < replicas; j++) {
        out.get((i * replicas + j) % pods).add(adapterName(i));
      }
    }
    return out.stream().map(Set::copyOf).toList();
  }

  /** The weight of every adapter, in order. */
  public double[] adapterWeights() {
    double[] w = new double[adapters];
    for (int i = 0; i < adapters; i++) {
      w[i] = weights != null ? weights.get(i) : 1.0 / Math.pow(i + 1, zipf);
    }
    return w;
  }

  public static String adapterName(int i) {
    return "adapter-" + i;
  }
}
