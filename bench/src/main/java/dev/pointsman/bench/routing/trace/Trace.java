package dev.pointsman.bench.routing.trace;

import java.util.Arrays;

/**
 * A request trace as read from a file: per row its arrival time (ms from the first row, ascending),
 * prompt and answer lengths in tokens and, for traces that have them, the ids of its prompt's
 * prefix blocks (equal ids = the same block of {@link #blockTokens()} tokens). Immutable; shared by
 * every run that replays it.
 */
public final class Trace {
  private final String source;
  private final String format;
  private final int blockTokens;
  private final double[] timeMs;
  private final int[] input;
  private final int[] output;
  private final int[] blockStart;
  private final long[] blocks;

  private Trace(Builder b, int[] order) {
    this.source = b.source;
    this.format = b.format;
    this.blockTokens = b.blockTokens;
    int n = b.size;
    timeMs = new double[n];
    input = new int[n];
    output = new int[n];
    blockStart = new int[n + 1];
    blocks = new long[b.blockCount];
    double first = n == 0 ? 0 : b.timeMs[order[0]];
    int k = 0;
    for (int i = 0; i < n; i++) {
      int r = order[i];
      timeMs[i] = b.timeMs[r] - first;
      input[i] = b.input[r];
      output[i] = b.output[r];
      blockStart[i] = k;
      int from = b.blockStart[r];
      int len = b.blockStart[r + 1] - from;
      System.arraycopy(b.blocks, from, blocks, k, len);
      k += len;
    }
    blockStart[n] = k;
  }

  /** Where it was read from (a path or a shipped name). */
  public String source() {
    return source;
  }

  /** {@code mooncake} or {@code azure}. */
  public String format() {
    return format;
  }

  public int blockTokens() {
    return blockTokens;
  }

  public int size() {
    return timeMs.length;
  }

  /** Arrival of row {@code i}, ms after the first row. */
  public double timeMs(int i) {
    return timeMs[i];
  }

  public int inputTokens(int i) {
    return input[i];
  }

  public int outputTokens(int i) {
    return output[i];
  }

  /** The prefix block ids of row {@code i} (empty when the trace has none). */
  public long[] blocks(int i) {
    return Arrays.copyOfRange(blocks, blockStart[i], blockStart[i + 1]);
  }

  /** Time from the first to the last arrival, ms. */
  public double spanMs() {
    return size() == 0 ? 0 : timeMs[size() - 1];
  }

  /** Mean arrival rate over the span, requests per second. */
  public double meanRatePerSecond() {
    return spanMs() <= 0 ? Double.NaN : (size() - 1) * 1000.0 / spanMs();
  }

  /** Collects rows in file order; {@link #build()} orders them by time (stable). */
  static final class Builder {
    private final String source;
    private final String format;
    private int blockTokens;
    private boolean declared;
    private double[] timeMs = new double[1024];
    private int[] input = new int[1024];
    private int[] output = new int[1024];
    private int[] blockStart = new int[1025];
    private long[] blocks = new long[4096];
    private int size;
    private int blockCount;

    Builder(String source, String format, int blockTokens) {
      this.source = source;
      this.format = format;
      this.blockTokens = blockTokens;
    }

    void add(double time, int in, int out, long[] ids) {
      if (size == timeMs.length) {
        timeMs = Arrays.copyOf(timeMs, size * 2);
        input = Arrays.copyOf(input, size * 2);
        output = Arrays.copyOf(output, size * 2);
        blockStart = Arrays.copyOf(blockStart, size * 2 + 1);
      }
      while (blockCount + ids.length > blocks.length) {
        blocks = Arrays.copyOf(blocks, blocks.length * 2);
      }
      timeMs[size] = time;
      input[size] = in;
      output[size] = out;
      blockStart[size] = blockCount;
      System.arraycopy(ids, 0, blocks, blockCount, ids.length);
      blockCount += ids.length;
      size++;
      blockStart[size] = blockCount;
    }

    int size() {
      return size;
    }

    /**
     * A row states the tokens per block id: the first row sets them for the trace, later rows must
     * agree.
     */
    void declareBlockTokens(int tokens) {
      if (!declared && size == 0) {
        blockTokens = tokens;
        declared = true;
      } else if (tokens != blockTokens) {
        throw new IllegalArgumentException(
            "block_tokens: "
                + tokens
                + " (expected "
                + blockTokens
                + (declared ? ", as the first row states" : ": earlier rows did not state it")
                + ")");
      }
    }

    int blockTokens() {
      return blockTokens;
    }

    Trace build() {
      Integer[] boxed = new Integer[size];
      for (int i = 0; i < size; i++) {
        boxed[i] = i;
      }
      Arrays.sort(boxed, (a, b) -> Double.compare(timeMs[a], timeMs[b]));
      int[] order = new int[size];
      for (int i = 0; i < size; i++) {
        order[i] = boxed[i];
      }
      return new Trace(this, order);
    }
  }
}
