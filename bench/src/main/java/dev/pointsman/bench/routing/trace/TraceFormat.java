package dev.pointsman.bench.routing.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.Locale;

/** The trace formats the bench reads, and how to tell them apart. */
public enum TraceFormat {
  /**
   * Mooncake's JSONL (kvcache-ai/Mooncake, FAST'25 trace release): one JSON object per line with
   * {@code timestamp} (ms), {@code input_length}, {@code output_length} and {@code hash_ids}.
   */
  MOONCAKE(
      "mooncake",
      "Mooncake JSONL",
      "one JSON object per line: {\"timestamp\": ms, \"input_length\": tokens, \"output_length\":"
          + " tokens, \"hash_ids\": [block ids]}") {
    @Override
    void read(BufferedReader in, Trace.Builder out, String source) throws IOException {
      MooncakeReader.read(in, out, source);
    }
  },
  /**
   * The Azure LLM inference trace's CSV (Azure/AzurePublicDataset, 2023 and 2024): a header with
   * {@code TIMESTAMP}, {@code ContextTokens} and {@code GeneratedTokens}, one request per row.
   */
  AZURE(
      "azure",
      "Azure CSV",
      "CSV with a header naming TIMESTAMP, ContextTokens and GeneratedTokens, then rows such as"
          + " '2023-11-16 18:15:46.6805900,374,44'") {
    @Override
    void read(BufferedReader in, Trace.Builder out, String source) throws IOException {
      AzureReader.read(in, out, source);
    }
  };

  private final String id;
  private final String title;
  private final String expected;

  TraceFormat(String id, String title, String expected) {
    this.id = id;
    this.title = title;
    this.expected = expected;
  }

  /** The name used in scenario files ({@code mooncake}, {@code azure}). */
  public String id() {
    return id;
  }

  /** The format's name in messages ({@code Mooncake JSONL}, {@code Azure CSV}). */
  public String title() {
    return title;
  }

  /** What a file of this format looks like, for error messages. */
  public String expected() {
    return expected;
  }

  abstract void read(BufferedReader in, Trace.Builder out, String source) throws IOException;

  /** The format named {@code id}. */
  public static TraceFormat of(String id) {
    for (TraceFormat f : values()) {
      if (f.id.equals(id)) {
        return f;
      }
    }
    throw new IllegalArgumentException("format: '" + id + "' (expected mooncake or azure)");
  }

  /**
   * The format of a file from its name ({@code .jsonl}/{@code .json} or {@code .csv}, before an
   * optional {@code .gz}), else from its first non-blank line ({@code {} or a CSV header).
   */
  public static TraceFormat detect(String fileName, String firstLine) {
    String n = fileName.toLowerCase(Locale.ROOT);
    n = n.endsWith(".gz") ? n.substring(0, n.length() - 3) : n;
    if (n.endsWith(".jsonl") || n.endsWith(".json")) {
      return MOONCAKE;
    }
    if (n.endsWith(".csv")) {
      return AZURE;
    }
    String line = firstLine == null ? "" : firstLine.strip();
    if (line.startsWith("{")) {
      return MOONCAKE;
    }
    if (line.toUpperCase(Locale.ROOT).contains("TIMESTAMP")) {
      return AZURE;
    }
    throw new IllegalArgumentException(
        fileName
            + ": not a trace format the bench knows (expected "
            + MOONCAKE.title
            + ", "
            + MOONCAKE.expected
            + "; or "
            + AZURE.title
            + ", "
            + AZURE.expected
            + ")");
  }
}
