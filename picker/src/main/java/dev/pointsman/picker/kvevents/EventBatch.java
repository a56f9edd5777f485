package dev.pointsman.picker.kvevents;

import java.util.List;

/**
 * One published message's payload: vLLM's {@code EventBatch}.
 *
 * @param ts the engine's timestamp (seconds)
 * @param events the events, in order
 * @param dataParallelRank the publishing engine's data-parallel rank, or null when not sent
 * @param unknownEvents events of a type this decoder does not know, skipped
 */
public record EventBatch(
    double ts, List<KvEvent> events, Integer dataParallelRank, int unknownEvents) {
  public EventBatch {
    events = List.copyOf(events);
    if (unknownEvents < 0) {
      throw new IllegalArgumentException("unknownEvents: " + unknownEvents + " (expected >= 0)");
    }
  }
}
