package dev.pointsman.sim.engine;

import java.util.random.RandomGenerator;

/**
 * Synthetic ShareGPT-like request lengths (means ≈230 input / ≈200 output tokens): input ~
 * LogNormal(4.9, 1.0) clipped to [4, 1024]; output ~ LogNormal(4.9, 0.9) clipped to [4, 2048 −
 * input]. Not thread-safe (it uses the given generator). A caller that serves a model with another
 * context length (the routing benchmark) draws {@link #unlimitedOutput()} and applies its own
 * limit.
 */
public final class ShareGptLengths {
  private final RandomGenerator random;

  /** Samples with {@code random}, which should be seeded for reproducible runs. */
  public ShareGptLengths(RandomGenerator random) {
    this.random = random;
  }

  /** An input length. */
  public int input() {
    return clip(logNormal(4.9, 1.0), 4, 1024);
  }

  /** An output length for a prompt of {@code input} tokens. */
  public int output(int input) {
    return Math.min(unlimitedOutput(), Math.max(4, 2048 - input));
  }

  /**
   * An output length before any context limit: LogNormal(4.9, 0.9), at least 4. The same draw as
   * {@link #output(int)}, which caps it at {@code 2048 − input}.
   */
  public int unlimitedOutput() {
    return clip(logNormal(4.9, 0.9), 4, Integer.MAX_VALUE);
  }

  private double logNormal(double mu, double sigma) {
    return Math.exp(mu + sigma * random.nextGaussian());
  }

  private static int clip(double v, int lo, int hi) {
    return (int) Math.max(lo, Math.min(hi, Math.round(v)));
  }
}
