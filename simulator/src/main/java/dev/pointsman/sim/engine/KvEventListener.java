package dev.pointsman.sim.engine;

/**
 * Told when the KV cache's prefix index changes, as vLLM publishes it ({@code BlockStored}, {@code
 * BlockRemoved}, {@code AllBlocksCleared}); called on the thread that advances the engine. Copies
 * of an engine (for look-ahead) tell no one.
 */
public interface KvEventListener {
  KvEventListener NONE = new KvEventListener() {};

  /**
   * A full block of {@code blockSize} tokens got content hash {@code hash}; its parent block's hash
   * is {@code parent}, 0 for a prefix's first block.
   */
  default void stored(long parent, long hash, int blockSize) {}

  /** The cached block with content hash {@code hash} was evicted. */
  default void removed(long hash) {}

  /** Every cached block was dropped (the engine restarted). */
  default void cleared() {}
}
