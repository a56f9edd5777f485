package dev.pointsman.sim.engine;

/**
 * The shape of a dense decoder-only transformer served in BF16, as its Hugging Face {@code
 * config.json} states it (Llama family: gated MLP, grouped-query attention, untied LM head).
 *
 * @param name shape name, e.g. {@code llama-3-8b}
 * @param layers decoder layers
 * @param hidden model width {@code d}
 * @param heads attention (query) heads
 * @param kvHeads key/value heads
 * @param headDim width of one head
 * @param intermediate MLP width
 * @param vocab vocabulary size
 */
public record ModelShape(
    String name,
    int layers,
    int hidden,
    int heads,
    int kvHeads,
    int headDim,
    int intermediate,
    int vocab) {

  /** Bytes per BF16 value. */
  public static final int BYTES = 2;

  /** Validates every field. */
  public ModelShape {
    Check.name("name", name);
    Check.positive("layers", layers);
    Check.positive("hidden", hidden);
    Check.positive("heads", heads);
    Check.positive("kvHeads", kvHeads);
    Check.positive("headDim", headDim);
    Check.positive("intermediate", intermediate);
    Check.positive("vocab", vocab);
    if (heads % kvHeads != 0) {
      throw new IllegalArgumentException(
          "kvHeads: " + kvHeads + " (expected a divisor of heads " + heads + ")");
    }
  }

  /**
   * Weights of the per-layer linear operations over all layers: QKV {@code d·(heads+2·kvHeads)·
   * headDim}, O {@code heads·headDim·d}, gate+up {@code 2·d·I}, down {@code I·d}.
   */
  public double linearParams() {
    double qkv = (double) hidden * (heads + 2L * kvHeads) * headDim;
    double o = (double) heads * headDim * hidden;
    double mlp = 3.0 * hidden * intermediate;
    return layers * (qkv + o + mlp);
  }

  /** Weights of the LM head ({@code vocab × d}); the embedding table has as many. */
  public double lmHeadParams() {
    return (double) vocab * hidden;
  }

  /** All weights in bytes: linear layers, embedding table and LM head (norms are negligible). */
  public double weightBytes() {
    return BYTES * (linearParams() + 2 * lmHeadParams());
  }

  /** KV cache bytes per token: {@code layers × kvHeads × headDim × 2 (K and V) × 2 bytes}. */
  public double kvBytesPerToken() {
    return (double) layers * kvHeads * headDim * 2 * BYTES;
  }

  /** Whether the per-layer linear operations are the same as {@code other}'s (vocab may differ). */
  public boolean sameLinearOps(ModelShape other) {
    return layers == other.layers
        && hidden == other.hidden
        && heads == other.heads
        && kvHeads == other.kvHeads
        && headDim == other.headDim
        && intermediate == other.intermediate;
  }
}
