package dev.pointsman.sim.engine;

/**
 * Told when the KV cache's prefix index changes, as vLLM publishes it ({@code BlockStored}, {@code
 * BlockRemoved}, {@code AllBlocksCleared}, on the GPU and, for an engine that offloads, on the
 * CPU); called on the thread that advances the engine. Copies of an engine (for look-ahead) tell no
 * one.
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

  /**
   * A full block was stored in the CPU tier of an engine that offloads ({@code BlockStored} with
   * {@code medium: CPU}); its parent block's hash is {@code parent}, 0 for a prefix's first block.
   */
  default void offloaded(long parent, long hash, int blockSize) {}

  /** The CPU tier dropped the block with content hash {@code hash}. */
  default void offloadRemoved(long hash) {}

  /** Every cached block, on either tier, was dropped (the engine restarted). */
  default void cleared() {}
}
