package dev.pointsman.picker.scheduling;

/**
 * What a scheduler learns locally, told to whoever shares it with other replicas: each pick's
 * prompt blocks and adapter, and each observed time to first token and per output token. Called on
 * the decision and response paths, so an implementation only hands the fact off (a bounded queue)
 * and never blocks, throws or does I/O. The other replicas apply it with {@link
 * Scheduler#learnPick}, {@link Scheduler#learnTtft} and {@link Scheduler#learnTpot}.
 */
public interface Learning {
  /** Shares nothing: one replica alone. */
  Learning NONE = new Learning() {};

  /**
   * {@code address} was picked for a prompt of these prefix blocks, for {@code adapter} (null for
   * the base model), with {@code uncachedTokens} to prefill. {@code blocks} is not modified later.
   */
  default void picked(String address, long[] blocks, String adapter, double uncachedTokens) {}

  /** A pick on {@code address}, predicted as {@code prediction}, had its first token after this. */
  default void ttft(String address, Decision.Prediction prediction, double ttftSeconds) {}

  /** A pick on {@code address} with this analytic time per output token saw {@code tpotSeconds}. */
  default void tpot(String address, double analyticTpotSeconds, double tpotSeconds) {}
}
