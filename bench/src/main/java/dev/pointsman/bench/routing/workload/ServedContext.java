package dev.pointsman.bench.routing.workload;

import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.sim.engine.GpuProfile;
import dev.pointsman.sim.engine.GpuProfiles;

/**
 * The context length a scenario's fleet serves: the scenario's {@code contextTokens} when it sets
 * one, else the model's own, 131,072 tokens (Llama 3.1's 128K context, {@code
 * max_position_embeddings} in Meta's model config; the bench's default model is Llama-3.1-8B, whose
 * layers are Llama-3-8B's, the shape the GPU profiles describe), lowered to what the smallest pod's
 * KV cache holds (its profile for the pods' model shape): vLLM refuses to start with a {@code
 * max_model_len} its KV cache cannot hold, so an operator serving a mixed fleet sets the smallest
 * pod's.
 */
public final class ServedContext {
  /** Llama 3.1's context length in tokens. */
  public static final int MODEL_CONTEXT_TOKENS = 131_072;

  private static final GpuProfiles PROFILES = GpuProfiles.builtIn();

  private ServedContext() {}

  /** The context length in tokens. */
  public static int tokens(Scenario scenario) {
    if (scenario.contextTokens() != null) {
      return scenario.contextTokens();
    }
    long tokens = MODEL_CONTEXT_TOKENS;
    for (PodGroup g : scenario.fleet()) {
      GpuProfile p;
      try {
        p = PROFILES.get(g.gpu(), g.shape());
      } catch (IllegalArgumentException e) {
        continue; // the fleet's own check names it
      }
      tokens = Math.min(tokens, (long) p.kvBlocks() * p.blockSize());
    }
    return (int) Math.max(ContextLimit.MIN_TOKENS, tokens);
  }

  /** The limit that requests of {@code scenario} are fitted to. */
  public static ContextLimit limit(Scenario scenario) {
    return new ContextLimit(tokens(scenario));
  }
}
