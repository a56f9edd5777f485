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
   * @param blocks matched leading blocks per candidate
   * @param promptBlocks the request's full blocks
   * @param blockSize tokens per block
   */
  record Match(int[] blocks, int promptBlocks, int blockSize) {
    public Match {
      blocks = blocks.clone();
      if (promptBlocks < 0 || blockSize < 1) {
        throw new IllegalArgumentException(
            "promptBlocks/blockSize: " + promptBlocks + "/" + blockSize + " (expected >= 0/>= 1)");
      }
    }

    @Override
    public int[] blocks() {
      return blocks.clone();
    }
  }
}
