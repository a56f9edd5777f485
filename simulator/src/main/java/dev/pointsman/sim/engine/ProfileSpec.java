package dev.pointsman.sim.engine;

/**
 * A profile to build: which model shape on which GPU type, over how many GPUs, with which engine
 * limits.
 *
 * @param gpu GPU type (a {@link GpuSpec} name)
 * @param model model shape (a {@link ModelShape} name)
 * @param tensorParallel GPUs per pod (default 1)
 * @param maxBatchedTokens per-step token budget ({@code max_num_batched_tokens})
 * @param maxNumSeqs per-step sequence cap ({@code max_num_seqs}, default 256)
 */
public record ProfileSpec(
    String gpu, String model, Integer tensorParallel, int maxBatchedTokens, Integer maxNumSeqs) {

  /** Validates every field; fills defaults. */
  public ProfileSpec {
    Check.name("gpu", gpu);
    Check.name("model", model);
    tensorParallel = tensorParallel == null ? 1 : tensorParallel;
    Check.positive("tensorParallel", tensorParallel);
    Check.positive("maxBatchedTokens", maxBatchedTokens);
    maxNumSeqs = maxNumSeqs == null ? 256 : maxNumSeqs;
    Check.positive("maxNumSeqs", maxNumSeqs);
  }

  /** {@code gpu/model}. */
  String key() {
    return gpu + "/" + model;
  }
}
