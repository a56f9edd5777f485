package dev.pointsman.sim.engine;

import java.util.Locale;

/**
 * Prints what each built-in profile's step-time model gives at a few reference points (the table of
 * {@code docs/simulator.md}): a decode step at batch 1, decode throughput at batch 64 and prefill
 * throughput of one fresh prompt filling the token budget. Usage: {@code ProfileTable}.
 */
public final class ProfileTable {
  private ProfileTable() {}

  /** Prints the table. */
  public static void main(String[] args) {
    GpuProfiles profiles = GpuProfiles.builtIn();
    System.out.println(
        "| profile | TP | KV tokens | decode step, batch 1, 512 ctx (ms) | decode tok/s, batch 64,"
            + " 512 ctx | prefill tok/s, one prompt of the token budget |");
    System.out.println("|---|---|---|---|---|---|");
    for (String key : profiles.keys()) {
      String[] parts = key.split("/", 2);
      GpuProfile p = profiles.get(parts[0], parts[1]);
      System.out.println(
          String.format(
              Locale.ROOT,
              "| %s | %d | %,d | %.2f | %,.0f | %,.0f |",
              key,
              p.tensorParallel(),
              p.kvTokens(),
              decodeStepMs(p, 1, 512),
              64 * 1000 / decodeStepMs(p, 64, 512),
              prefillTokensPerSecond(p)));
    }
  }

  /** One decode step of {@code batch} sequences with {@code context} tokens each. */
  public static double decodeStepMs(GpuProfile p, int batch, int context) {
    long ctx = (long) batch * context;
    return p.costs().stepMs(0, batch, ctx, ctx, 0, batch, 0);
  }

  /** Prefill rate of one fresh prompt chunk as long as the token budget. */
  public static double prefillTokensPerSecond(GpuProfile p) {
    long n = p.maxBatchedTokens();
    return n * 1000 / p.costs().stepMs(n, 0, n, 0, n * (n + 1) / 2, 1, 0);
  }
}
