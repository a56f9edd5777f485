package dev.pointsman.bench.routing.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.bench.routing.scenario.TraceSpec;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFilesTest {
  @TempDir Path dir;

  private Trace read(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return TraceFiles.load(TraceSpec.of(file.toString()));
  }

  @Test
  void readsMooncakeRowsSkippingBlankLinesAndUnknownFields() throws Exception {
    Trace t =
        read(
            "small.jsonl",
            """
            {"timestamp": 0, "input_length": 1100, "output_length": 20, "hash_ids": [0, 1, 2]}

            {"timestamp": 1500, "input_length": 600, "output_length": 0, "hash_ids": [0], "x": 1}
            {"timestamp": 1000, "input_length": 10, "output_length": 5}
            """);
    assertThat(t.format()).isEqualTo("mooncake");
    assertThat(t.size()).isEqualTo(3);
    // ordered by time: the row at 1000 ms comes second
    assertThat(t.timeMs(1)).isEqualTo(1000);
    assertThat(t.inputTokens(1)).isEqualTo(10);
    assertThat(t.blocks(1)).isEmpty();
    assertThat(t.blocks(0)).containsExactly(0, 1, 2);
    assertThat(t.blocks(2)).containsExactly(0);
    assertThat(t.outputTokens(2)).as("0 is replayed as 1").isEqualTo(1);
    assertThat(t.spanMs()).isEqualTo(1500);
    assertThat(t.meanRatePerSecond()).isEqualTo(2 / 1.5);
  }

  @Test
  void aRecordingStatesTheTokensItsBlockIdsStandFor() throws Exception {
    // a Pointsman recording: ids of 16-token blocks, more of them than 512-token blocks would allow
    Trace t =
        read(
            "recorded.jsonl",
            """
            {"timestamp": 0, "input_length": 40, "output_length": 2, "hash_ids": [7, 8, 9], \
            "block_tokens": 16, "model": "m", "tenant": "a"}
            {"timestamp": 100, "input_length": 20, "output_length": 3, "hash_ids": [7, 5], \
            "block_tokens": 16, "model": "m"}
            """);
    assertThat(t.blockTokens()).isEqualTo(16);
    assertThat(t.blocks(0)).containsExactly(7, 8, 9);
    assertThat(t.blocks(1)).containsExactly(7, 5);

    assertThatThrownBy(
            () ->
                read(
                    "mixed.jsonl",
                    """
                    {"timestamp": 0, "input_length": 40, "output_length": 2, "block_tokens": 16}
                    {"timestamp": 1, "input_length": 40, "output_length": 2, "block_tokens": 32}
                    """))
        .hasMessageContaining("line 2: block_tokens: 32 (expected 16, as the first row states)");
    assertThatThrownBy(
            () ->
                read(
                    "late.jsonl",
                    """
                    {"timestamp": 0, "input_length": 40, "output_length": 2}
                    {"timestamp": 1, "input_length": 40, "output_length": 2, "block_tokens": 16}
                    """))
        .hasMessageContaining("block_tokens: 16 (expected 512: earlier rows did not state it)");
  }

  @Test
  void mooncakeErrorsNameTheLineAndTheFormat() throws Exception {
    assertThatThrownBy(
            () ->
                read(
                    "bad.jsonl",
                    """
                    {"timestamp": 0, "input_length": 10, "output_length": 5}
                    {"timestamp": 5, "input_length": "ten", "output_length": 5}
                    """))
        .hasMessageContaining("bad.jsonl line 2: input_length: \"ten\" (must be an integer >= 1)")
        .hasMessageContaining("expected Mooncake JSONL, one JSON object per line");
    assertThatThrownBy(() -> read("cut.jsonl", "{\"timestamp\": 0, \"input_len"))
        .hasMessageContaining("cut.jsonl line 1: not JSON");
    assertThatThrownBy(
            () ->
                read(
                    "ids.jsonl",
                    "{\"timestamp\": 0, \"input_length\": 513, \"output_length\": 1,"
                        + " \"hash_ids\": [1, 2, 3]}"))
        .hasMessageContaining("line 1: hash_ids: 3 ids for input_length 513 (at most 2 blocks");
    assertThatThrownBy(
            () ->
                read("neg.jsonl", "{\"timestamp\": -4, \"input_length\": 5, \"output_length\": 1}"))
        .hasMessageContaining("line 1: timestamp: -4.0 (must be >= 0 ms)");
  }

  @Test
  void readsAzureCsvWithColumnsInAnyOrderBomAndCrlf() throws Exception {
    Trace t =
        read(
            "small.csv",
            "\uFEFFGeneratedTokens,Other,TIMESTAMP,ContextTokens\r\n"
                + "44,x,2023-11-16 18:15:46.6805900,374\r\n"
                + "\r\n"
                + "109,y,2023-11-16 18:15:50.9951690,396\r\n"
                + "0,z,2023-11-16T18:15:51,12\r\n");
    assertThat(t.format()).isEqualTo("azure");
    assertThat(t.size()).isEqualTo(3);
    assertThat(t.inputTokens(0)).isEqualTo(374);
    assertThat(t.outputTokens(0)).isEqualTo(44);
    assertThat(t.timeMs(1)).isCloseTo(4314.579, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(t.timeMs(2)).isCloseTo(4319.41, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(t.outputTokens(2)).isEqualTo(1);
    assertThat(t.blocks(0)).isEmpty();
  }

  @Test
  void azureErrorsNameTheLineAndTheFormat() {
    assertThatThrownBy(
            () ->
                read(
                    "bad.csv",
                    "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                        + "2023-11-16 18:15:46.68,374,44\n"
                        + "16/11/2023 18:15,374,44\n"))
        .hasMessageContaining("bad.csv line 3: TIMESTAMP: '16/11/2023 18:15'")
        .hasMessageContaining("expected Azure CSV, CSV with a header naming TIMESTAMP");
    assertThatThrownBy(() -> read("hdr.csv", "time,in,out\n1,2,3\n"))
        .hasMessageContaining("hdr.csv line 1: header [time, in, out] lacks a column");
    assertThatThrownBy(
            () ->
                read(
                    "short.csv",
                    "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46,374\n"))
        .hasMessageContaining("short.csv line 2: 2 columns");
    assertThatThrownBy(
            () ->
                read(
                    "one.csv",
                    "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46,374,1\n"))
        .hasMessageContaining("one.csv: 1 requests over 0.0 ms (expected at least 2 requests");
  }

  @Test
  void detectsTheFormatFromTheNameOrTheFirstLine() throws Exception {
    Trace jsonl =
        read(
            "noext",
            "\n{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 1}\n"
                + "{\"timestamp\": 9, \"input_length\": 5, \"output_length\": 1}\n");
    assertThat(jsonl.format()).isEqualTo("mooncake");
    Trace csv =
        read(
            "noext.txt",
            "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                + "2023-11-16 18:15:46,5,1\n2023-11-16 18:15:47,5,1\n");
    assertThat(csv.format()).isEqualTo("azure");
    assertThatThrownBy(() -> read("what.txt", "hello\n"))
        .hasMessageContaining("what.txt: not a trace format the bench knows")
        .hasMessageContaining("Mooncake JSONL")
        .hasMessageContaining("Azure CSV");
    assertThatThrownBy(() -> TraceFiles.load(TraceSpec.of(dir.resolve("none.csv").toString())))
        .hasMessageContaining("none.csv: no such file")
        .hasMessageContaining("mooncake-conversation-first-30min.jsonl");
  }

  @Test
  void readsGzipFiles() throws Exception {
    Path file = dir.resolve("t.jsonl.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(
          ("{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 2, \"hash_ids\": [7]}\n"
                  + "{\"timestamp\": 4, \"input_length\": 6, \"output_length\": 3}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    Trace t = TraceFiles.load(TraceSpec.of(file.toString()));
    assertThat(t.size()).isEqualTo(2);
    assertThat(t.blocks(0)).containsExactly(7);
  }

  @Test
  void theShippedTracesReadWhole() {
    // first lines of the files, as published
    Trace mooncake = TraceFiles.load(TraceSpec.of("mooncake-conversation-first-30min.jsonl"));
    assertThat(mooncake.size()).isEqualTo(5_719);
    assertThat(mooncake.timeMs(0)).isZero();
    assertThat(mooncake.inputTokens(0)).isEqualTo(6758);
    assertThat(mooncake.outputTokens(0)).isEqualTo(500);
    assertThat(mooncake.blocks(0)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
    assertThat(mooncake.blocks(1)).startsWith(0, 14, 15);
    assertThat(mooncake.spanMs()).isLessThan(1_800_000);
    Trace azure = TraceFiles.load(TraceSpec.of("azure-llm-2023-conv.csv"));
    assertThat(azure.size()).isEqualTo(19_366);
    assertThat(azure.inputTokens(0)).isEqualTo(374);
    assertThat(azure.outputTokens(0)).isEqualTo(44);
    assertThat(azure.inputTokens(1)).isEqualTo(396);
    assertThat(azure.timeMs(1)).isCloseTo(4314.579, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(azure.spanMs() / 1000).isBetween(3400.0, 3600.0);
  }
}
