package dev.pointsman.sim.engine;

/**
 * Cumulative counters of one engine.
 *
 * @param prefixQueryTokens prompt tokens looked up in the prefix cache
 * @param prefixHitTokens of those, tokens found
 * @param preemptions requests preempted
 * @param loraLoads adapters loaded into GPU memory
 * @param promptTokens prompt tokens of requests that produced a first token
 * @param generationTokens output tokens produced
 * @param finished requests finished
 * @param aborted requests aborted
 * @param steps engine steps run
 * @param offloadHitTokens prompt tokens loaded from the CPU tier instead of computed (what vLLM
 *     counts as its connector's, or external, prefix-cache hits); not in {@code prefixHitTokens}
 */
public record EngineCounters(
    long prefixQueryTokens,
    long prefixHitTokens,
    long preemptions,
    long loraLoads,
    long promptTokens,
    long generationTokens,
    long finished,
    long aborted,
    long steps,
    long offloadHitTokens) {}
