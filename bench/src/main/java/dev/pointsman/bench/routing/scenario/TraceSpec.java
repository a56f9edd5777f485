package dev.pointsman.bench.routing.scenario;

import java.util.Set;

/**
 * A request trace to replay instead of a synthetic workload: arrivals from its timestamps, rescaled
 * so that the replayed window's mean rate is the scenario's load (a fraction of fleet capacity);
 * prompt and answer lengths from its columns; for Mooncake traces, prefix identity from {@code
 * hash_ids}.
 *
 * @param file a trace file path, or the name of a shipped trace ({@code
 *     mooncake-conversation-first-30min.jsonl}, {@code azure-llm-2023-conv.csv})
 * @param format {@code mooncake} (JSONL) or {@code azure} (CSV), or null to detect it from the file
 *     name and first line
 * @param blockTokens tokens per {@code hash_ids} block (default 512, Mooncake's)
 */
public record TraceSpec(String file, String format, Integer blockTokens) {
  public static final Set<String> FORMATS = Set.of("mooncake", "azure");

  public TraceSpec {
    if (file == null || file.isBlank()) {
      throw new IllegalArgumentException("file: '" + file + "' (expected a trace file)");
    }
    if (format != null && !FORMATS.contains(format)) {
      throw new IllegalArgumentException(
          "format: '" + format + "' (expected mooncake or azure, or none to detect it)");
    }
    blockTokens = Check.atLeast("blockTokens", blockTokens, 512, 1);
  }

  /** A trace whose format is detected, with Mooncake's 512-token blocks. */
  public static TraceSpec of(String file) {
    return new TraceSpec(file, null, null);
  }
}
