package dev.pointsman.bench.routing.policy;

import dev.pointsman.picker.scheduling.prior.GpuSpec;
import dev.pointsman.picker.scheduling.prior.GpuSpecs;
import dev.pointsman.picker.scheduling.prior.SpeedPriors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The mismatch suite's variants of {@code pointsman}: the production policy and scheduler with a
 * speed prior an operator got wrong, as an operator could get it wrong (a GPU table row off by a
 * factor, a GPU label the table does not know, no labels at all, the wrong model size). Each runs
 * next to {@code pointsman}, whose prior is the built-in spec-sheet table with the pods' real GPU
 * labels.
 */
public final class MismatchPriors {
  /** The GPU types of the suite's fleet, as its pods' {@code gpu} labels name them. */
  static final List<String> GPUS = List.of("H100-80", "A100-80", "L4");

  private static final Map<String, SpeedPriors> VARIANTS = variants();

  /** Every variant's policy name, in report order. */
  public static final List<String> NAMES = List.copyOf(VARIANTS.keySet());

  private MismatchPriors() {}

  /** The prior of variant {@code name}, or null when {@code name} is not a variant. */
  static SpeedPriors priors(String name) {
    return VARIANTS.get(name);
  }

  private static Map<String, SpeedPriors> variants() {
    GpuSpecs specs = GpuSpecs.builtIn();
    Map<String, SpeedPriors> out = new LinkedHashMap<>();
    for (String gpu : GPUS) {
      GpuSpec spec = specs.lookup(gpu).orElseThrow();
      String key = gpu.replaceAll("-.*", "").toLowerCase(java.util.Locale.ROOT);
      // ×0.5: the prior believes this GPU half as fast as its spec sheet; ×2: twice as fast
      out.put(
          "prior-" + key + "-x0.5", new SpeedPriors(specs.with(gpu, spec.scaled(0.5)), Double.NaN));
      out.put("prior-" + key + "-x2", new SpeedPriors(specs.with(gpu, spec.scaled(2)), Double.NaN));
    }
    out.put("prior-l4-unknown", new SpeedPriors(specs.without("L4"), Double.NaN));
    out.put("prior-no-labels", new SpeedPriors(GpuSpecs.none(), Double.NaN));
    out.put("prior-shape-70b", new SpeedPriors(specs, 70));
    return out;
  }
}
