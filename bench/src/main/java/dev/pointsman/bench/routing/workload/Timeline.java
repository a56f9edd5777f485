package dev.pointsman.bench.routing.workload;

import dev.pointsman.bench.routing.scenario.ArrivalSpec;
import dev.pointsman.bench.routing.scenario.WorkloadPart;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * When the next request arrives and which workload part it belongs to. Parts without an {@code
 * arrival} of their own share the scenario's process and are drawn by weight at each arrival (with
 * no such part this is exactly the single-process stream); a part with its own process arrives by
 * it, at its share of the rate, merged in time with the others. Deterministic for a seed. Not
 * thread-safe.
 */
final class Timeline {
  private final List<Arrivals> sources = new ArrayList<>();
  private final List<int[]> partsOf = new ArrayList<>();
  private final List<Sampler> mixOf = new ArrayList<>();
  private final double[] heads;
  private final SplittableRandom mixRandom;
  private int part;

  /**
   * @param arrivalRandom the shared process's generator
   * @param mixRandom draws the part among those sharing the scenario's process
   * @param seed seeds each own process (a generator of its own, so the shared stream's draws do not
   *     move)
   */
  Timeline(
      ArrivalSpec shared,
      List<WorkloadPart> parts,
      double ratePerSecond,
      SplittableRandom arrivalRandom,
      SplittableRandom mixRandom,
      long seed) {
    this.mixRandom = mixRandom;
    double total = parts.stream().mapToDouble(WorkloadPart::weight).sum();
    List<Integer> common = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      if (parts.get(p).arrival() == null) {
        common.add(p);
      }
    }
    if (!common.isEmpty()) {
      int[] idx = common.stream().mapToInt(Integer::intValue).toArray();
      double[] w = new double[idx.length];
      double sum = 0;
      for (int i = 0; i < idx.length; i++) {
        w[i] = parts.get(idx[i]).weight();
        sum += w[i];
      }
      add(new Arrivals(shared, ratePerSecond * sum / total, arrivalRandom), idx, new Sampler(w));
    }
    for (int p = 0; p < parts.size(); p++) {
      WorkloadPart part = parts.get(p);
      if (part.arrival() != null) {
        SplittableRandom own = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 0xA11 + p);
        add(
            new Arrivals(part.arrival(), ratePerSecond * part.weight() / total, own),
            new int[] {p},
            null);
      }
    }
    heads = new double[sources.size()];
    for (int i = 0; i < heads.length; i++) {
      heads[i] = sources.get(i).next();
    }
  }

  private void add(Arrivals a, int[] idx, Sampler mix) {
    sources.add(a);
    partsOf.add(idx);
    mixOf.add(mix);
  }

  /** The next arrival time in ms; {@link #part()} is then its part. */
  double next() {
    int s = 0;
    for (int i = 1; i < heads.length; i++) {
      if (heads[i] < heads[s]) {
        s = i;
      }
    }
    double t = heads[s];
    heads[s] = sources.get(s).next();
    Sampler mix = mixOf.get(s);
    int[] idx = partsOf.get(s);
    part = mix == null ? idx[0] : idx[mix.next(mixRandom)];
    return t;
  }

  /** The part of the arrival {@link #next()} returned last. */
  int part() {
    return part;
  }
}
