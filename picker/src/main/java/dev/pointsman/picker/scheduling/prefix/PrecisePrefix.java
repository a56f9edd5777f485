package dev.pointsman.picker.scheduling.prefix;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.util.List;

/**
 * A prefix matcher that knows what the engines really cache (from their own events), used in place
 * of the approximate {@link PrefixIndex} for the requests it can match. Thread-safe.
 */
@FunctionalInterface
public interface PrecisePrefix {

  /**
   * Per candidate, the leading blocks of the request it holds; or null when this request cannot be
   * matched precisely (no token ids for it), and the approximate index decides.
   */
  Match match(SchedulingRequest request, List<Candidate> candidates);

  /**
   * @param blocks matched leading blocks per candidate, in its GPU memory
   * @param offloaded per candidate, the blocks after those that it holds in CPU memory, which it
   *     loads rather than computes
   * @param offloadedCredit how much of a GPU hit such a block is worth, 0–1
   * @param promptBlocks the request's full blocks
   * @param blockSize tokens per block
   */
  record Match(
      int[] blocks, int[] offloaded, double offloadedCredit, int promptBlocks, int blockSize) {
    public Match {
      blocks = blocks.clone();
      offloaded = offloaded.clone();
      if (offloaded.length != blocks.length) {
        throw new IllegalArgumentException(
            "offloaded: "
                + offloaded.length
                + " candidates (expected "
                + blocks.length
                + ", as blocks)");
      }
      if (!(offloadedCredit >= 0 && offloadedCredit <= 1)) {
        throw new IllegalArgumentException(
            "offloadedCredit: " + offloadedCredit + " (expected 0..1)");
      }
      if (promptBlocks < 0 || blockSize < 1) {
        throw new IllegalArgumentException(
            "promptBlocks/blockSize: " + promptBlocks + "/" + blockSize + " (expected >= 0/>= 1)");
      }
    }

    /** GPU matches only. */
    public Match(int[] blocks, int promptBlocks, int blockSize) {
      this(blocks, new int[blocks.length], 0, promptBlocks, blockSize);
    }

    @Override
    public int[] blocks() {
      return blocks.clone();
    }

    @Override
    public int[] offloaded() {
      return offloaded.clone();
    }
  }
}
