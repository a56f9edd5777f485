package dev.pointsman.sim.engine;

import java.util.Set;

/**
 * What a scrape of one pod's {@code /metrics} could see at {@code timeMs}, plus the truly resident
 * adapters (which real servers do not expose; a fair policy must not read them).
 *
 * @param timeMs engine time of the snapshot
 * @param waiting requests waiting (including preempted ones)
 * @param running requests running
 * @param waitingPromptTokens tokens still to prefill of the waiting requests
 * @param usedBlocks KV blocks held by requests
 * @param totalBlocks KV capacity in blocks
 * @param runningAdapters adapters with running requests
 * @param waitingAdapters adapters with waiting requests
 * @param residentAdapters adapters loaded in GPU memory (not observable on real servers)
 * @param counters cumulative counters
 */
public record PodSnapshot(
    double timeMs,
    int waiting,
    int running,
    long waitingPromptTokens,
    int usedBlocks,
    int totalBlocks,
    Set<String> runningAdapters,
    Set<String> waitingAdapters,
    Set<String> residentAdapters,
    EngineCounters counters) {

  /** Copies the sets. */
  public PodSnapshot {
    runningAdapters = Set.copyOf(runningAdapters);
    waitingAdapters = Set.copyOf(waitingAdapters);
    residentAdapters = Set.copyOf(residentAdapters);
  }

  /** KV cache usage in [0, 1], as {@code vllm:kv_cache_usage_perc}. */
  public double kvUsage() {
    return totalBlocks == 0 ? 0 : (double) usedBlocks / totalBlocks;
  }
}
