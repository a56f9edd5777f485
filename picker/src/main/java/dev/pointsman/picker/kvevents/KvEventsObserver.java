package dev.pointsman.picker.kvevents;

/**
 * Told what the KV-event subscribers see, per pool (bounded labels: pool names and fixed reasons).
 * Called on the subscribers' threads; implementations must be thread-safe. All methods default to
 * doing nothing.
 */
public interface KvEventsObserver {
  KvEventsObserver NONE = new KvEventsObserver() {};

  /** A batch of {@code events} events was received and applied. */
  default void batch(String pool, int events, KvBlockIndex.Applied applied) {}

  /** A message was dropped: {@code reason} from {@link KvEventFormatException#reason()}. */
  default void decodeError(String pool, String reason) {}

  /** Events of a type the decoder does not know were skipped. */
  default void unknownEvents(String pool, int events) {}

  /** {@code missed} sequence numbers were skipped by the publisher's stream. */
  default void gap(String pool, long missed) {}

  /**
   * A replay ended: {@code complete}, {@code incomplete}, {@code unavailable} (no socket) or {@code
   * initial} (the catch-up on connecting).
   */
  default void replay(String pool, String outcome) {}

  /** An engine's sequence went backwards (it restarted); its entries were dropped. */
  default void restart(String pool) {}
}
