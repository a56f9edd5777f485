package dev.pointsman.bench.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.bench.routing.report.ResultsJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchCommandTest {

  private static int run(StringWriter out, StringWriter err, String... args) {
    CommandLine cmd = new CommandLine(new BenchCommand());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }

  @Test
  void writesResultsReportAndCharts(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tiny.yaml");
    Files.writeString(
        file,
        """
        name: tiny
        description: two A10G pods, RAG
        fleet: [{gpu: A10G, count: 2}]
        workload: [{kind: rag, documents: 3, documentTokens: 600}]
        loads: [0.2, 0.5]
        durationSeconds: 20
        warmupSeconds: 5
        drainSeconds: 60
        """);
    Path out = dir.resolve("out");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code =
        run(
            stdout,
            stderr,
            "--scenario",
            file.toString(),
            "--out",
            out.toString(),
            "--policies",
            "round-robin,pointsman,oracle",
            "--no-progress");
    assertThat(code).as(stderr.toString()).isZero();

    JsonNode json = ResultsJson.read(out.resolve("results.json"));
    assertThat(json.get("scenario").asText()).isEqualTo("tiny");
    assertThat(json.get("runs")).hasSize(6);
    JsonNode run = json.get("runs").get(0);
    for (String field :
        new String[] {
          "policy",
          "load",
          "seed",
          "completed",
          "failed",
          "shed",
          "throughputTokPerS",
          "goodputReqPerS",
          "prefixHitRate",
          "preemptions",
          "loraLoads",
          "imbalanceCv"
        }) {
      assertThat(run.has(field)).as(field).isTrue();
    }
    assertThat(run.get("ttftMs").fieldNames())
        .toIterable()
        .containsExactly("mean", "p50", "p90", "p99");
    assertThat(run.get("tpotMs").fieldNames()).toIterable().containsExactly("p50", "p99");
    assertThat(json.get("knee").fieldNames())
        .toIterable()
        .containsExactly("round-robin", "pointsman", "oracle");
    assertThat(json.get("oracleGapCaptured")).isNotNull();
    assertThat(out.resolve("tiny-ttft-cdf.png")).isNotEmptyFile();
    assertThat(out.resolve("tiny-p99-ttft.png")).isNotEmptyFile();
    assertThat(out.resolve("tiny-goodput.png")).isNotEmptyFile();
    String report = Files.readString(out.resolve("report.md"));
    assertThat(report).contains("### tiny", "Whole ladder, p99 TTFT", "| pointsman |");
    assertThat(stderr.toString()).doesNotContain("\r");
  }

  @Test
  void badArgumentsAreNamed(@TempDir Path dir) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code =
        run(stdout, stderr, "--scenario", "s1", "--policies", "fastest", "--out", dir.toString());
    assertThat(code).isEqualTo(2);
    assertThat(stderr.toString()).contains("--policies: 'fastest'");
  }
}
