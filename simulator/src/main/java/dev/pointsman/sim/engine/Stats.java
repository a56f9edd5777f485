package dev.pointsman.sim.engine;

/** Mutable counters of one engine. Not thread-safe. */
final class Stats {
  long prefixQueryTokens;
  long prefixHitTokens;
  long offloadHitTokens;
  long preemptions;
  long promptTokens;
  long generationTokens;
  long finished;
  long aborted;
  long steps;

  Stats copy() {
    Stats c = new Stats();
    c.prefixQueryTokens = prefixQueryTokens;
    c.prefixHitTokens = prefixHitTokens;
    c.offloadHitTokens = offloadHitTokens;
    c.preemptions = preemptions;
    c.promptTokens = promptTokens;
    c.generationTokens = generationTokens;
    c.finished = finished;
    c.aborted = aborted;
    c.steps = steps;
    return c;
  }

  EngineCounters snapshot(long loraLoads) {
    return new EngineCounters(
        prefixQueryTokens,
        prefixHitTokens,
        preemptions,
        loraLoads,
        promptTokens,
        generationTokens,
        finished,
        aborted,
        steps,
        offloadHitTokens);
  }
}
