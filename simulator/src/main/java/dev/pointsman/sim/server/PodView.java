package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.PodSnapshot;

/**
 * What one scrape sees of a pod: its engine's state and how the engine is deployed.
 *
 * @param model served base model
 * @param maxLoras GPU adapter slots (0: LoRA off)
 * @param maxNumSeqs per-step sequence cap
 * @param blockSize tokens per KV block
 * @param snapshot the engine's state
 * @param ttft time-to-first-token histogram
 * @param e2e end-to-end latency histogram
 * @param nowEpochSec wall-clock time of the scrape
 * @param startEpochSec wall-clock time the pod started
 * @param sleepLevel 0 awake, 1 or 2 asleep at that vLLM sleep level
 * @param options deployment options
 */
record PodView(
    String model,
    int maxLoras,
    int maxNumSeqs,
    int blockSize,
    PodSnapshot snapshot,
    LatencyHistogram ttft,
    LatencyHistogram e2e,
    double nowEpochSec,
    double startEpochSec,
    int sleepLevel,
    EngineOptions options) {

  /** KV capacity in tokens. */
  long capacityTokens() {
    return (long) snapshot.totalBlocks() * blockSize;
  }

  /** Share {@code part} (of {@code parts}) of {@code total}, the remainder going to the first. */
  static long share(long total, int parts, int part) {
    return total / parts + (part < total % parts ? 1 : 0);
  }
}
