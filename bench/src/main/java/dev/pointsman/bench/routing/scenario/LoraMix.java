package dev.pointsman.bench.routing.scenario;

import java.util.List;

/**
 * Which requests go to LoRA adapters, and which adapters.
 *
 * @param fraction share of requests that name an adapter (default 1)
 * @param weights relative weight per adapter ({@code adapter-0}, {@code adapter-1}, …); or
 * @param adapters the number of adapters, drawn uniformly or with Zipf popularity
 * @param zipf Zipf exponent over {@code adapters} (0 = uniform)
 */
public record LoraMix(Double fraction, List<Double> weights, Integer adapters, Double zipf) {
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
