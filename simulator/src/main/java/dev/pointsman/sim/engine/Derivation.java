package dev.pointsman.sim.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link GpuProfile}s from spec sheets, model shapes and linear-operation fits; every
 * formula is stated in {@code docs/simulator.md}.
 */
final class Derivation {
  private static final double GIB = 1024.0 * 1024 * 1024;
  private static final double FP32_BYTES = 4;

  private final Map<String, GpuSpec> gpus;
  private final Map<String, ModelShape> models;
  private final List<LinearFit> fits;
  private final EngineDefaults engine;

  Derivation(
      Map<String, GpuSpec> gpus,
      Map<String, ModelShape> models,
      List<LinearFit> fits,
      EngineDefaults engine) {
    this.gpus = gpus;
    this.models = models;
    this.fits = fits;
    this.engine = engine;
  }

  GpuProfile profile(ProfileSpec p) {
    GpuSpec gpu = lookup(gpus, p.gpu(), "gpu");
    ModelShape shape = lookup(models, p.model(), "model");
    int tp = p.tensorParallel();
    Efficiency eff = efficiency(gpu.name());
    LinearFit linear = linear(gpu, shape, tp, eff);
    double flops = gpu.flopsPerSecond() * eff.compute();
    double bytes = gpu.bytesPerSecond() * eff.memory();
    double lmHead = shape.lmHeadParams() / tp;
    StepCosts costs =
        new StepCosts(
            linear.floorMs(),
            linear.interceptMs(),
            linear.msPerToken(),
            4.0 * shape.heads() * shape.headDim() * shape.layers() / tp / flops * 1000,
            shape.kvBytesPerToken() / tp / bytes * 1000,
            lmHead * ModelShape.BYTES / bytes * 1000,
            2 * lmHead / flops * 1000,
            tp == 1 ? 0 : 2.0 * shape.layers() * engine.allReduceLatencyUs() / 1000,
            tp == 1 ? 0 : allReduceMsPerToken(gpu, shape, tp),
            engine.stepOverheadMs(),
            engine.perSeqMicros() / 1000,
            engine.loraStepFactor());
    return new GpuProfile(
        gpu.name(),
        shape.name(),
        tp,
        costs,
        kvBlocks(gpu, shape, p),
        engine.blockSize(),
        p.maxBatchedTokens(),
        p.maxNumSeqs());
  }

  /**
   * The fit measured on this GPU at this degree for these linear operations, or one derived from
   * the spec sheet and {@code eff}: flat part = weight bytes ÷ (bandwidth × memory efficiency),
   * slope = FLOPs per token ÷ (peak × compute efficiency), intercept = observed ratio × flat part.
   */
  LinearFit linear(GpuSpec gpu, ModelShape shape, int tp, Efficiency eff) {
    for (LinearFit f : fits) {
      if (f.gpu().equals(gpu.name())
          && f.tensorParallel() == tp
          && lookup(models, f.model(), "fits.model").sameLinearOps(shape)) {
        return f;
      }
    }
    double params = shape.linearParams() / tp;
    double floor = params * ModelShape.BYTES / (gpu.bytesPerSecond() * eff.memory()) * 1000;
    double slope = 2 * params / (gpu.flopsPerSecond() * eff.compute()) * 1000;
    return new LinearFit(
        gpu.name(),
        shape.name(),
        tp,
        floor,
        eff.interceptRatio() * floor,
        slope,
        "derived from the spec sheet");
  }

  /**
   * The efficiency observed in this GPU's own single-GPU fits, or, for a GPU without any, the mean
   * over every single-GPU fit.
   */
  Efficiency efficiency(String gpu) {
    List<Efficiency> own = new ArrayList<>();
    List<Efficiency> all = new ArrayList<>();
    for (LinearFit f : fits) {
      if (f.tensorParallel() != 1) {
        continue;
      }
      Efficiency e =
          Efficiency.of(
              f, lookup(gpus, f.gpu(), "fits.gpu"), lookup(models, f.model(), "fits.model"));
      all.add(e);
      if (f.gpu().equals(gpu)) {
        own.add(e);
      }
    }
    return Efficiency.mean(own.isEmpty() ? all : own);
  }

  /**
   * Ring all-reduce of the step's hidden states, twice per layer (after attention and after the
   * MLP): each GPU sends {@code 2(tp−1)/tp} of {@code tokens × d × 2} bytes over its link.
   */
  private static double allReduceMsPerToken(GpuSpec gpu, ModelShape shape, int tp) {
    if (gpu.linkGBps() <= 0) {
      throw new IllegalArgumentException(
          gpu.name() + ": tensorParallel " + tp + " (expected 1: the GPU has no linkGBps)");
    }
    double bytesPerToken = 2.0 * (tp - 1) / tp * shape.hidden() * ModelShape.BYTES;
    return 2.0 * shape.layers() * bytesPerToken / (gpu.linkGBps() * 1e9) * 1000;
  }

  /**
   * vLLM's memory arithmetic per GPU: utilisation × memory − weights − peak activations − reserve,
   * divided by the KV bytes per token.
   */
  private int kvBlocks(GpuSpec gpu, ModelShape shape, ProfileSpec p) {
    int tp = p.tensorParallel();
    double budget = engine.memoryUtilization() * gpu.memoryGiB() * GIB;
    double weights = shape.weightBytes() / tp;
    double free = budget - weights - activationBytes(shape, p) - engine.reserveGiB() * GIB;
    double tokens = free / (shape.kvBytesPerToken() / tp);
    long blocks = (long) Math.floor(tokens / engine.blockSize());
    if (blocks < 1) {
      throw new IllegalArgumentException(
          p.key()
              + ": tensorParallel "
              + tp
              + " leaves "
              + Math.round(free / GIB * 10) / 10.0
              + " GiB for the KV cache (expected > 0: the weights do not fit)");
    }
    return (int) Math.min(blocks, Integer.MAX_VALUE);
  }

  /**
   * The largest live tensors of one forward pass at the token budget: MLP gate+up output and its
   * activation ({@code 3·I/tp}), the QKV output ({@code (heads+2·kvHeads)·headDim/tp}), the
   * residual and normed hidden state ({@code 2·d}), in BF16; plus FP32 logits for {@code
   * maxNumSeqs} sequences.
   */
  static double activationBytes(ModelShape s, ProfileSpec p) {
    int tp = p.tensorParallel();
    double perToken =
        (3.0 * s.intermediate() + (s.heads() + 2.0 * s.kvHeads()) * s.headDim()) / tp
            + 2.0 * s.hidden();
    double logits = (double) p.maxNumSeqs() * s.vocab() / tp * FP32_BYTES;
    return p.maxBatchedTokens() * perToken * ModelShape.BYTES + logits;
  }

  private static <T> T lookup(Map<String, T> map, String name, String field) {
    T t = map.get(name);
    if (t == null) {
      throw new IllegalArgumentException(
          field + ": " + name + " (expected one of " + new java.util.TreeSet<>(map.keySet()) + ")");
    }
    return t;
  }
}
