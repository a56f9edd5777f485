package dev.pointsman.bench.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.bench.routing.report.ResultsJson;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
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
            "round-robin,pointsman,greedy-lookahead",
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
        .containsExactly("round-robin", "pointsman", "greedy-lookahead");
    assertThat(json.get("lookaheadGapCaptured")).isNotNull();
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

  @Test
  void aSuiteOrScenariosButNotBothNorNeither(@TempDir Path dir) {
    for (String[] args :
        new String[][] {
          {"--scenario", "s1", "--suite", "replicas", "--out", dir.toString()},
          {"--out", dir.toString()}
        }) {
      StringWriter stderr = new StringWriter();
      assertThat(run(new StringWriter(), stderr, args)).isEqualTo(2);
      assertThat(stderr.toString())
          .containsPattern("[02] of --scenario, --suite, --trace and --traces given");
    }
    StringWriter unknown = new StringWriter();
    assertThat(run(new StringWriter(), unknown, "--suite", "nope", "--out", dir.toString()))
        .isEqualTo(2);
    assertThat(unknown.toString()).contains("--suite: 'nope'");
  }

  @Test
  void thePodsNeededSearchRunsOnAScenarioNamedOnTheCommandLine(@TempDir Path dir) throws Exception {
    Path scenario = tiny(dir, "rateReqPerS: 20\n");
    Path out = dir.resolve("out");
    StringWriter stderr = new StringWriter();
    int code =
        run(
            new StringWriter(),
            stderr,
            "--suite",
            "pods-needed",
            "--scenario",
            scenario.toString(),
            "--quick",
            "--seeds",
            "1",
            "--policies",
            "weighted-round-robin,pointsman",
            "--out",
            out.toString(),
            "--no-progress");
    assertThat(code).as(stderr.toString()).isZero();
    String md = Files.readString(out.resolve("suite-pods-needed.md"));
    // --quick keeps a named scenario (it narrows only the suite's own S1–S5)
    assertThat(md).contains("## tiny (test)", "Rate: 20.0 req/s (the scenario's rateReqPerS)");
    assertThat(md).doesNotContain("s1-heterogeneous");
    assertThat(md).contains("2× window: pods per seed");
    // a suite built around its own scenarios takes none from the command line
    StringWriter refused = new StringWriter();
    assertThat(
            run(
                new StringWriter(),
                refused,
                "--suite",
                "replicas",
                "--scenario",
                scenario.toString(),
                "--out",
                out.toString()))
        .isEqualTo(2);
    assertThat(refused.toString()).contains("2 of --scenario, --suite");
  }

  @Test
  void thePodsNeededSearchSizesAFleetForATraceAtItsOwnRate(@TempDir Path dir) throws Exception {
    // a recorded trace: 100 requests, one a second (the what-if of docs/rollout.md)
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      lines.append(
          String.format(
              "{\"timestamp\": %d, \"input_length\": 300, \"output_length\": 40,"
                  + " \"hash_ids\": [%d]}%n",
              i * 1000, i % 5));
    }
    Path trace = Files.writeString(dir.resolve("recorded.jsonl"), lines);
    Path fleet =
        Files.writeString(
            dir.resolve("fleet.yaml"),
            "pools:\n  - {gpu: H100-80, count: 1}\n  - {gpu: L4, count: 2}\n");
    Path out = dir.resolve("out");
    StringWriter stderr = new StringWriter();
    int code =
        run(
            new StringWriter(),
            stderr,
            "--suite",
            "pods-needed",
            "--trace",
            trace.toString(),
            "--fleet",
            fleet.toString(),
            "--quick",
            "--seeds",
            "1",
            "--policies",
            "round-robin,pointsman",
            "--out",
            out.toString(),
            "--no-progress");
    assertThat(code).as(stderr.toString()).isZero();
    String md = Files.readString(out.resolve("suite-pods-needed.md"));
    assertThat(md)
        .contains("## trace-recorded", "Rate: 1.0 req/s (the trace's own mean arrival rate)")
        .contains("| pointsman | ");
  }

  @Test
  void aTraceScenarioWithoutARateIsRefusedByThePodsNeededSearchBeforeAnythingRuns(@TempDir Path dir)
      throws Exception {
    Path scenario =
        Files.writeString(
            dir.resolve("trace-no-rate.yaml"),
            """
            name: trace-no-rate
            fleet: [{gpu: A100-80, count: 2}]
            trace: {file: azure-llm-2023-conv.csv}
            loads: [0.5]
            """);
    StringWriter stderr = new StringWriter();
    int code =
        run(
            new StringWriter(),
            stderr,
            "--suite",
            "pods-needed",
            "--scenario",
            scenario.toString(),
            "--out",
            dir.resolve("out").toString(),
            "--no-progress");
    assertThat(code).isEqualTo(2);
    assertThat(stderr.toString())
        .contains(
            "trace-no-rate: a trace scenario needs its rateReqPerS for the pods-needed suite");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void runsAnOperatorWrittenPolicyOnTheProductionScheduler(@TempDir Path dir) throws Exception {
    Path scenario = tiny(dir, "");
    Path policy = dir.resolve("queue.yaml");
    Files.writeString(policy, "scorers:\n  - {type: queue-scorer, weight: 1}\n");
    Path out = dir.resolve("out");
    StringWriter stderr = new StringWriter();
    int code =
        run(
            new StringWriter(),
            stderr,
            "--scenario",
            scenario.toString(),
            "--out",
            out.toString(),
            "--policies",
            "queue-only",
            "--policy-file",
            "my-queue=" + policy,
            "--no-progress");
    assertThat(code).as(stderr.toString()).isZero();
    JsonNode json = ResultsJson.read(out.resolve("results.json"));
    assertThat(json.get("knee").fieldNames())
        .toIterable()
        .containsExactly("queue-only", "my-queue");
    // the same blend as the shipped queue-only baseline, on the same stream: the same result
    JsonNode runs = json.get("runs");
    assertThat(runs.get(1).get("ttftMs")).isEqualTo(runs.get(0).get("ttftMs"));
    assertThat(Files.readString(out.resolve("report.md"))).contains("--policy-file my-queue=");
  }

  @Test
  void thePodsNeededSearchSizesAnOperatorWrittenPolicy(@TempDir Path dir) throws Exception {
    Path scenario = tiny(dir, "rateReqPerS: 6\n");
    // the shipped default's blend written out: it must need exactly what 'pointsman' needs
    Path same = dir.resolve("same.yaml");
    Files.writeString(
        same,
        """
        scorers:
          - {type: predicted-latency-scorer, weight: 4}
          - {type: lora-affinity-scorer, weight: 2}
          - {type: prefix-cache-scorer, weight: 2}
          - {type: kv-cache-utilization-scorer, weight: 4}
        """);
    Path out = dir.resolve("out");
    StringWriter stderr = new StringWriter();
    int code =
        run(
            new StringWriter(),
            stderr,
            "--suite",
            "pods-needed",
            "--scenario",
            scenario.toString(),
            "--seeds",
            "1",
            "--policies",
            "pointsman",
            "--policy-file",
            "same=" + same,
            "--out",
            out.toString(),
            "--no-progress");
    assertThat(code).as(stderr.toString()).isZero();
    String md = Files.readString(out.resolve("suite-pods-needed.md"));
    String ours = row(md, "| pointsman | ");
    String theirs = row(md, "| same | ");
    assertThat(theirs.substring("| same ".length()))
        .isEqualTo(ours.substring("| pointsman ".length()));
  }

  @Test
  void theKneeLatencySuiteComparesAtTheBaselinesKneeWhereItHoldsTheSloInBothWindows(
      @TempDir Path dir) throws Exception {
    Path scenario = tiny(dir, "rateReqPerS: 6\n");
    Path out = dir.resolve("out");
    StringWriter stderr = new StringWriter();
    int code =
        run(
            new StringWriter(),
            stderr,
            "--suite",
            "knee-latency",
            "--scenario",
            scenario.toString(),
            "--seeds",
            "1,2",
            "--policies",
            "weighted-round-robin,pointsman",
            "--out",
            out.toString(),
            "--no-progress");
    assertThat(code).as(stderr.toString()).isZero();
    String md = Files.readString(out.resolve("suite-knee-latency.md"));
    String atKnee = md.substring(md.indexOf("p99 TTFT at weighted-round-robin's knee ("));
    double slo = Scenarios.load(scenario.toString()).slo().kneeP99TtftMs();
    // the baseline's own p99 at its knee: within the SLO on every seed, in both windows
    String[] cells = row(atKnee, "| weighted-round-robin | ").split(" \\| ");
    for (int col : new int[] {1, 3}) {
      for (String v : cells[col].replace(" |", "").split(", ")) {
        assertThat(Double.parseDouble(v.replace(",", ""))).as(cells[col]).isLessThanOrEqualTo(slo);
      }
    }
    assertThat(atKnee)
        .contains("| pointsman | ")
        .contains("pointsman against weighted-round-robin");
    assertThat(md).contains("Knee rate, pointsman against weighted-round-robin: ");
  }

  private static String row(String md, String prefix) {
    return md.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
  }

  @Test
  void aBadPolicyFileIsNamed(@TempDir Path dir) throws Exception {
    Path policy = dir.resolve("bad.yaml");
    Files.writeString(policy, "scorers:\n  - {type: fastest-scorer, weight: 1}\n");
    StringWriter stderr = new StringWriter();
    String[] args = {"--scenario", "s1", "--out", dir.toString(), "--policy-file", ""};
    args[5] = "mine=" + policy;
    assertThat(run(new StringWriter(), stderr, args)).isEqualTo(2);
    assertThat(stderr.toString()).contains("--policy-file mine=", "fastest-scorer");

    StringWriter clash = new StringWriter();
    args[5] = "pointsman=" + policy;
    assertThat(run(new StringWriter(), clash, args)).isEqualTo(2);
    assertThat(clash.toString()).contains("'pointsman' is a shipped policy's name");

    StringWriter search = new StringWriter();
    String[] pods = {"--suite", "pods-needed", "--quick", "--out", dir.toString(), "--policy-file"};
    String[] withFile = java.util.Arrays.copyOf(pods, pods.length + 1);
    withFile[pods.length] = "mine=" + policy;
    assertThat(run(new StringWriter(), search, withFile)).isEqualTo(2);
    assertThat(search.toString()).contains("--policy-file mine=", "fastest-scorer");

    StringWriter missing = new StringWriter();
    args[5] = "mine=" + dir.resolve("nope.yaml");
    assertThat(run(new StringWriter(), missing, args)).isEqualTo(2);
    assertThat(missing.toString()).contains("cannot read");
  }

  @Test
  void pickerReplicasDeployEveryScenarioWithReplicasThatShareState() {
    Scenario s5 = BenchCommand.withPickers(Scenarios.load("s5"), 2);
    assertThat(s5.name()).isEqualTo("s5-mixed-pickers-2");
    assertThat(s5.production().pickerReplicas()).isEqualTo(2);
    assertThat(s5.production().sharing()).isTrue();
    // the rest of the deployment is the scenario's own
    assertThat(s5.production().text()).isEqualTo(Scenarios.load("s5").production().text());
    assertThat(Scenarios.load("s2").instances().get(0).production().pickerReplicas()).isEqualTo(1);
    assertThat(BenchCommand.withPickers(Scenarios.load("s2"), 2).instances())
        .allSatisfy(i -> assertThat(i.production().pickerReplicas()).isEqualTo(2))
        .extracting(Scenario::name)
        .startsWith("s2-bursty-pickers-2-cv1");
    // one replica shares with nobody
    assertThat(BenchCommand.withPickers(Scenarios.load("s1"), 1).production().sharing()).isFalse();
  }

  /** An H100 and two L4s on ShareGPT-like traffic, 20 s per run, with {@code extra} keys. */
  private static Path tiny(Path dir, String extra) throws java.io.IOException {
    Path scenario = dir.resolve("tiny.yaml");
    Files.writeString(
        scenario,
        """
        name: tiny
        description: an H100 and two L4s
        fleet: [{gpu: H100-80, count: 1}, {gpu: L4, count: 2}]
        workload: [{kind: sharegpt}]
        loads: [0.5]
        durationSeconds: 20
        warmupSeconds: 5
        drainSeconds: 60
        """
            + extra);
    return scenario;
  }
}
