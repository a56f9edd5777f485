package dev.pointsman.sim.engine;

/**
 * KV-cache offloading to CPU memory, as vLLM's offloading connector does it ({@code
 * --kv-offloading-size} GiB per pod, {@code --kv-offloading-backend native}): every full block is
 * also kept in a CPU tier of {@code cpuBlocks} blocks, and a prompt's blocks found there (after its
 * GPU prefix hit) are copied back over the host link instead of computed.
 *
 * @param cpuBlocks blocks the CPU tier holds; 0 for no offloading
 * @param loadMsPerToken milliseconds to copy one token's KV back onto the GPU: its KV bytes over
 *     the pod's host-to-device bandwidth (all of its GPUs' links together). The simulator charges
 *     the copy to the step that admits the request, as if it held the GPU; vLLM overlaps it with
 *     other requests' steps, so this overstates what a load costs the others.
 */
public record KvOffload(int cpuBlocks, double loadMsPerToken) {
  /**
   * A host-to-device bandwidth per GPU, chosen, not measured: what pinned copies of KV blocks reach
   * over a PCIe 4.0 x16 link (32 GB/s raw each way), and well under a PCIe 5.0 link's.
   */
  public static final double DEFAULT_GB_PER_SECOND = 20;

  /** No offloading. */
  public static final KvOffload NONE = new KvOffload(0, 0);

  /** Validates both fields. */
  public KvOffload {
    if (cpuBlocks < 0) {
      throw new IllegalArgumentException("cpuBlocks: " + cpuBlocks + " (expected >= 0)");
    }
    if (!(loadMsPerToken >= 0) || Double.isInfinite(loadMsPerToken)) {
      throw new IllegalArgumentException(
          "loadMsPerToken: " + loadMsPerToken + " (expected a finite value >= 0)");
    }
  }

  /**
   * The tier {@code gib} GiB of CPU memory make for {@code shape} in blocks of {@code blockSize}
   * tokens, loaded back at {@code gbPerSecond} GB/s per GPU over {@code tensorParallel} GPUs (each
   * loads its own shard of the heads).
   */
  public static KvOffload of(
      double gib, double gbPerSecond, ModelShape shape, int blockSize, int tensorParallel) {
    if (!(gib >= 0) || !(gbPerSecond > 0) || Double.isInfinite(gib + gbPerSecond)) {
      throw new IllegalArgumentException(
          "offload GiB/GB/s: " + gib + "/" + gbPerSecond + " (expected >= 0 and > 0, finite)");
    }
    double bytesPerToken = shape.kvBytesPerToken();
    int blocks = (int) Math.min(Integer.MAX_VALUE, gib * (1L << 30) / (bytesPerToken * blockSize));
    double msPerToken = bytesPerToken / (gbPerSecond * 1e9 * tensorParallel) * 1000;
    return new KvOffload(blocks, msPerToken);
  }

  /**
   * The tier of {@code gib} GiB for a pod of {@code profile} serving {@code shape}, loaded back at
   * {@code gbPerSecond} per GPU; {@link #NONE} for 0 GiB.
   */
  public static KvOffload forPod(
      double gib, double gbPerSecond, ModelShape shape, GpuProfile profile) {
    return gib == 0
        ? NONE
        : of(gib, gbPerSecond, shape, profile.blockSize(), profile.tensorParallel());
  }

  /** Whether there is a CPU tier. */
  public boolean enabled() {
    return cpuBlocks > 0;
  }
}
