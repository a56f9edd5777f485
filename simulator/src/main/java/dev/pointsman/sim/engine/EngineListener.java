package dev.pointsman.sim.engine;

/**
 * Receives an engine's per-request events, in time order, on the thread that advances the engine.
 * All methods default to doing nothing.
 */
public interface EngineListener {
  /** A listener that ignores everything. */
  EngineListener NONE = new EngineListener() {};

  /** The first output token of {@code request} was produced on {@code pod} at {@code timeMs}. */
  default void onFirstToken(int pod, SimRequest request, double timeMs) {}

  /** Output token number {@code generated} (1-based) of {@code request} was produced. */
  default void onToken(int pod, SimRequest request, int generated, double timeMs) {}

  /** {@code request} finished. */
  default void onFinish(RequestResult result) {}

  /**
   * {@code request} was lost on {@code pod} at {@code timeMs} because the engine restarted; it will
   * not finish there.
   */
  default void onFailed(int pod, SimRequest request, double timeMs) {}
}
