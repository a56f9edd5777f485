package dev.pointsman.picker.kvevents;

import java.util.Arrays;
import java.util.Objects;

/**
 * One KV-cache event of a vLLM engine ({@code vllm/distributed/kv_events.py}). Engine block hashes
 * are carried as 64-bit values: an integer hash as is, a bytes hash (a sha256 digest) as its low 64
 * bits read big-endian, which is the value vLLM itself sends when {@code
 * VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES} is set.
 */
public sealed interface KvEvent {

  /** The medium of blocks in GPU memory. */
  String GPU = "GPU";

  /**
   * The medium of blocks an engine offloaded to CPU memory (vLLM's offloading connector), which it
   * loads back instead of computing them.
   */
  String CPU = "CPU";

  /**
   * Full blocks were stored, a chain: block {@code i}'s parent is block {@code i-1}, block 0's is
   * {@code parentHash}.
   *
   * @param hashes the engine's hashes of the blocks
   * @param parentHash the engine hash of the first block's parent, or null for a prefix's first
   * @param tokenIds the blocks' tokens, {@code hashes.length * blockSize} of them; none for a store
   *     off the GPU (vLLM's offloading connector names the blocks it copied to CPU memory by their
   *     hashes only)
   * @param blockSize tokens per block
   * @param adapter the LoRA adapter's name ({@code lora_name}), or null
   * @param medium where the blocks are ({@code GPU}, {@code CPU}, ...), null meaning GPU
   */
  record BlockStored(
      long[] hashes, Long parentHash, int[] tokenIds, int blockSize, String adapter, String medium)
      implements KvEvent {
    public BlockStored {
      hashes = hashes.clone();
      tokenIds = tokenIds.clone();
      if (blockSize < 1) {
        throw new IllegalArgumentException("block_size: " + blockSize + " (expected >= 1)");
      }
      boolean tokenless = tokenIds.length == 0 && medium != null && !medium.equals(GPU);
      if ((long) hashes.length * blockSize != tokenIds.length && !tokenless) {
        throw new IllegalArgumentException(
            "token_ids: "
                + tokenIds.length
                + " tokens (expected "
                + hashes.length
                + " blocks x "
                + blockSize
                + ")");
      }
    }

    public long[] hashes() {
      return hashes.clone();
    }

    public int[] tokenIds() {
      return tokenIds.clone();
    }

    int hashCount() {
      return hashes.length;
    }

    long hash(int i) {
      return hashes[i];
    }

    int[] tokensShared() {
      return tokenIds;
    }

    boolean onGpu() {
      return medium == null || medium.equals(GPU);
    }

    boolean onCpu() {
      return CPU.equals(medium);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof BlockStored s
          && Arrays.equals(hashes, s.hashes)
          && Objects.equals(parentHash, s.parentHash)
          && Arrays.equals(tokenIds, s.tokenIds)
          && blockSize == s.blockSize
          && Objects.equals(adapter, s.adapter)
          && Objects.equals(medium, s.medium);
    }

    @Override
    public int hashCode() {
      return Objects.hash(
          Arrays.hashCode(hashes), parentHash, Arrays.hashCode(tokenIds), blockSize);
    }

    @Override
    public String toString() {
      return "BlockStored" + Arrays.toString(hashes) + " parent " + parentHash + " on " + medium;
    }
  }

  /**
   * Blocks were evicted.
   *
   * @param hashes the engine's hashes of the blocks
   * @param medium where they were, null meaning GPU
   */
  record BlockRemoved(long[] hashes, String medium) implements KvEvent {
    public BlockRemoved {
      hashes = hashes.clone();
    }

    public long[] hashes() {
      return hashes.clone();
    }

    long[] hashesShared() {
      return hashes;
    }

    boolean onGpu() {
      return medium == null || medium.equals(GPU);
    }

    boolean onCpu() {
      return CPU.equals(medium);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof BlockRemoved r
          && Arrays.equals(hashes, r.hashes)
          && Objects.equals(medium, r.medium);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(hashes);
    }

    @Override
    public String toString() {
      return "BlockRemoved" + Arrays.toString(hashes) + " on " + medium;
    }
  }

  /** Every block was dropped (a cache reset). */
  record AllBlocksCleared() implements KvEvent {}
}
