package dev.pointsman.picker.scheduling.prior;

import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.SpeedProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each endpoint's speed prior, from what an operator can know: its GPU type label mapped to
 * spec-sheet numbers ({@link GpuSpecs}), the model's parameter count, and the GPUs per endpoint,
 * through the {@link Roofline}. An endpoint whose GPU is unknown gets a neutral prior, the median
 * of its pool's known endpoints (or the {@link GpuSpecs#REFERENCE} GPU's when none is known), so
 * that it neither attracts nor repels traffic before its first tokens are observed. The learned
 * latency model corrects every prior from there. Thread-safe: immutable but for a bounded cache of
 * each endpoint's derived prior (a concurrent map of immutable values, cleared when full).
 *
 * <p>Labels read, per endpoint: {@value #GPU_PRODUCT_LABEL} (as NVIDIA's GPU feature discovery sets
 * it on nodes) or {@value SpeedProfile#GPU_LABEL}; {@value #MODEL_PARAMS_LABEL} ({@code 8b}, {@code
 * 70b}; set from a pool's {@code modelParams} or its model names); {@value #TENSOR_PARALLEL_LABEL};
 * {@value SpeedProfile#PREFILL_LABEL} overrides the prefill throughput.
 */
public final class SpeedPriors {
  /** The node label NVIDIA's GPU feature discovery sets, e.g. {@code NVIDIA-H100-80GB-HBM3}. */
  public static final String GPU_PRODUCT_LABEL = "nvidia.com/gpu.product";

  /** The model's parameter count: {@code 8b}, {@code 70b}, {@code 8x7b} or a plain count. */
  public static final String MODEL_PARAMS_LABEL = "pointsman.dev/model-params";

  /** GPUs one endpoint's model is split over (tensor parallel). */
  public static final String TENSOR_PARALLEL_LABEL = "pointsman.dev/tensor-parallel";

  private static final SpeedPriors BUILT_IN = new SpeedPriors(GpuSpecs.builtIn(), Double.NaN);

  /** Endpoints whose known prior is remembered; past this the memory is cleared. */
  static final int CACHED = 4096;

  private final GpuSpecs specs;
  private final double paramsBillions;

  /** Each endpoint's known prior, or {@link #UNKNOWN}: labels are parsed once, not per request. */
  private final ConcurrentHashMap<Endpoint, SpeedProfile> cache = new ConcurrentHashMap<>();

  private static final SpeedProfile UNKNOWN = new SpeedProfile("unknown", 1, 1, 1, 0);

  /**
   * @param specs the GPU table
   * @param paramsBillions the model size every endpoint serves, or NaN to read it from each
   *     endpoint's labels
   */
  public SpeedPriors(GpuSpecs specs, double paramsBillions) {
    if (specs == null) {
      throw new IllegalArgumentException("specs: null (expected a GPU table)");
    }
    if (!Double.isNaN(paramsBillions)) {
      GpuSpec.positive("paramsBillions", paramsBillions);
    }
    this.specs = specs;
    this.paramsBillions = paramsBillions;
  }

  /** The built-in GPU table, sizes from labels. */
  public static SpeedPriors builtIn() {
    return BUILT_IN;
  }

  /** The prior of one endpoint; a neutral reference when its GPU is unknown. */
  public SpeedProfile of(Endpoint endpoint) {
    SpeedProfile known = known(endpoint);
    return known != null ? known : overridden(endpoint, reference(endpoint));
  }

  /**
   * The priors of a pool's endpoints, in order: those with an unknown GPU get the median of the
   * known ones.
   */
  public List<SpeedProfile> of(List<EndpointState> pool) {
    List<SpeedProfile> out = new ArrayList<>(pool.size());
    List<SpeedProfile> known = new ArrayList<>(pool.size());
    boolean anyUnknown = false;
    for (EndpointState e : pool) {
      SpeedProfile p = known(e.endpoint());
      out.add(p);
      if (p == null) {
        anyUnknown = true;
      } else {
        known.add(p);
      }
    }
    if (anyUnknown) {
      SpeedProfile median = known.isEmpty() ? null : median(known);
      for (int i = 0; i < out.size(); i++) {
        if (out.get(i) == null) {
          Endpoint e = pool.get(i).endpoint();
          out.set(i, overridden(e, median != null ? median : reference(e)));
        }
      }
    }
    return out;
  }

  /** The prior {@code endpoint}'s labels name, or null when its GPU is unknown. */
  private SpeedProfile known(Endpoint endpoint) {
    SpeedProfile p = cache.get(endpoint);
    if (p == null) {
      if (cache.size() >= CACHED) {
        cache.clear();
      }
      SpeedProfile derived = derive(endpoint);
      p = derived == null ? UNKNOWN : derived;
      cache.put(endpoint, p);
    }
    return p == UNKNOWN ? null : p;
  }

  private SpeedProfile derive(Endpoint endpoint) {
    GpuSpec spec =
        specs
            .lookup(endpoint.label(GPU_PRODUCT_LABEL))
            .or(() -> specs.lookup(endpoint.label(SpeedProfile.GPU_LABEL)))
            .orElse(null);
    if (spec == null) {
      return null;
    }
    return overridden(endpoint, Roofline.profile(spec, params(endpoint), gpus(endpoint)));
  }

  private SpeedProfile reference(Endpoint endpoint) {
    SpeedProfile p = Roofline.profile(GpuSpecs.REFERENCE, params(endpoint), gpus(endpoint));
    return rename(p, "neutral");
  }

  private double params(Endpoint endpoint) {
    if (!Double.isNaN(paramsBillions)) {
      return paramsBillions;
    }
    OptionalDouble stated = ModelSize.parse(endpoint.label(MODEL_PARAMS_LABEL));
    return stated.orElse(ModelSize.ASSUMED_BILLIONS);
  }

  private static int gpus(Endpoint endpoint) {
    String v = endpoint.label(TENSOR_PARALLEL_LABEL);
    if (v == null || !v.trim().matches("[1-9]\\d{0,2}")) {
      return 1;
    }
    return Integer.parseInt(v.trim());
  }

  /** {@code base} with the endpoint's prefill-throughput label applied, when it is valid. */
  private static SpeedProfile overridden(Endpoint endpoint, SpeedProfile base) {
    String prefill = endpoint.label(SpeedProfile.PREFILL_LABEL);
    if (prefill == null) {
      return base;
    }
    try {
      return new SpeedProfile(
          base.name(),
          Double.parseDouble(prefill),
          base.decodeStepSeconds(),
          base.tokenBudget(),
          base.kvSecondsPerToken());
    } catch (IllegalArgumentException e) {
      return base;
    }
  }

  private static SpeedProfile median(List<SpeedProfile> known) {
    int n = known.size();
    double[] prefill = new double[n];
    double[] decode = new double[n];
    double[] kv = new double[n];
    double[] budget = new double[n];
    for (int i = 0; i < n; i++) {
      SpeedProfile p = known.get(i);
      prefill[i] = p.prefillTokensPerSecond();
      decode[i] = p.decodeStepSeconds();
      kv[i] = p.kvSecondsPerToken();
      budget[i] = p.tokenBudget();
    }
    return new SpeedProfile(
        "neutral (pool median)",
        median(prefill),
        median(decode),
        (int) Math.round(median(budget)),
        median(kv));
  }

  private static double median(double[] values) {
    Arrays.sort(values);
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  private static SpeedProfile rename(SpeedProfile p, String name) {
    return new SpeedProfile(
        name,
        p.prefillTokensPerSecond(),
        p.decodeStepSeconds(),
        p.tokenBudget(),
        p.kvSecondsPerToken());
  }
}
