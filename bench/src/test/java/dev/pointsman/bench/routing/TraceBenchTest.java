package dev.pointsman.bench.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.bench.routing.report.ResultsJson;
import dev.pointsman.bench.routing.run.Fleets;
import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code pointsman bench --trace}, and the shipped trace scenarios, end to end. */
class TraceBenchTest {
  @TempDir Path dir;

  private static int run(StringWriter err, String... args) {
    CommandLine cmd = new CommandLine(new BenchCommand());
    cmd.setOut(new PrintWriter(new StringWriter()));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }

  /** Runs {@code args} quick with round-robin and pointsman; returns the output folder. */
  private Path quick(String... args) {
    Path out = dir.resolve("out");
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--quick",
            "--policies",
            "round-robin,pointsman",
            "--out",
            out.toString(),
            "--no-progress"));
    StringWriter err = new StringWriter();
    assertThat(run(err, all.toArray(String[]::new))).as(err.toString()).isZero();
    return out;
  }

  /** 300 Mooncake-style rows over 5 minutes: 20 shared system prompts, some long prompts. */
  private Path mooncakeFile() throws Exception {
    SplittableRandom random = new SplittableRandom(4);
    StringBuilder sb = new StringBuilder();
    long nextId = 1000;
    for (int i = 0; i < 300; i++) {
      int blocks = 1 + random.nextInt(i % 10 == 0 ? 8 : 3);
      int input = blocks * 512 - random.nextInt(500);
      sb.append("{\"timestamp\": ").append(i * 1000L + random.nextInt(900));
      sb.append(", \"input_length\": ").append(input);
      sb.append(", \"output_length\": ").append(20 + random.nextInt(200));
      sb.append(", \"hash_ids\": [").append(random.nextInt(20));
      for (int b = 1; b < blocks; b++) {
        sb.append(", ").append(nextId++);
      }
      sb.append("]}\n");
    }
    Path file = dir.resolve("ours.jsonl");
    Files.writeString(file, sb);
    return file;
  }

  @Test
  void replaysAnOperatorsTraceOnTheirFleet() throws Exception {
    Path fleet = dir.resolve("fleet.yaml");
    Files.writeString(fleet, "contextTokens: 2048\npools:\n  - {gpu: A10G, count: 2}\n");
    Path out = quick("--trace", mooncakeFile().toString(), "--fleet", fleet.toString());

    JsonNode json = ResultsJson.read(out.resolve("results.json"));
    assertThat(json.get("scenario").asText()).isEqualTo("trace-ours");
    assertThat(json.get("runs")).hasSize(4);
    int cut = 0;
    for (JsonNode r : json.get("runs")) {
      assertThat(r.get("completed").asInt()).isPositive();
      cut += r.get("cut").asInt();
    }
    // one row in ten has up to 8 blocks of 512: over the 2,048-token context
    assertThat(cut).isPositive();
    String report = Files.readString(out.resolve("report.md"));
    assertThat(report)
        .contains("trace `" + dir.resolve("ours.jsonl") + "` (mooncake, 300 requests")
        .contains("- Context: 2,048 tokens (set by the scenario); measured requests cut")
        .contains("--trace " + dir.resolve("ours.jsonl") + " --fleet " + fleet);
  }

  @Test
  void aShippedTraceScenarioRunsEndToEndQuick() throws Exception {
    Path out = quick("--scenario", "t3");
    JsonNode json = ResultsJson.read(out.resolve("results.json"));
    assertThat(json.get("scenario").asText()).isEqualTo("t3-azure-heterogeneous");
    for (JsonNode r : json.get("runs")) {
      assertThat(r.get("completed").asInt()).isGreaterThan(100);
      assertThat(r.get("cut").asInt()).isZero();
    }
    assertThat(Files.readString(out.resolve("report.md")))
        .contains("trace `azure-llm-2023-conv.csv` (azure, 19,366 requests");
  }

  @Test
  void badTracesAndFleetsAreNamed() throws Exception {
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46,x,4\n");
    StringWriter err = new StringWriter();
    assertThat(run(err, "--trace", bad.toString(), "--out", dir.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains("bench: " + bad + " line 2: ContextTokens: 'x' (must be an integer >= 1)");

    Path fleet = dir.resolve("fleet.yaml");
    Files.writeString(fleet, "pools:\n  - {gpu: B200, count: 2}\n");
    StringWriter gpu = new StringWriter();
    String[] args = {"--trace", mooncakeFile().toString(), "--fleet", fleet.toString()};
    assertThat(run(gpu, args)).isEqualTo(2);
    assertThat(gpu.toString()).contains("trace-ours: fleet[0].gpu:", "B200");

    StringWriter both = new StringWriter();
    assertThat(run(both, "--scenario", "s1", "--trace", bad.toString())).isEqualTo(2);
    assertThat(both.toString()).contains("2 of --scenario, --suite, --trace and --traces given");

    StringWriter fleetOnly = new StringWriter();
    assertThat(run(fleetOnly, "--scenario", "s1", "--fleet", fleet.toString())).isEqualTo(2);
    assertThat(fleetOnly.toString()).contains("--fleet: applies to --trace only");
  }

  @Test
  void everyShippedTraceScenarioLoadsOnThisSimulator() {
    for (String name : Scenarios.TRACES) {
      Scenario s = Scenarios.load(name);
      assertThat(s.trace()).as(name).isNotNull();
      assertThat(Fleets.configs(s)).as(name).hasSize(s.pods());
    }
    Scenario t5 = Scenarios.load("t5");
    assertThat(t5.fleet()).extracting(PodGroup::shape).containsOnly("llama-3-70b");
    assertThat(Fleets.configs(t5).get(0).gpu().tensorParallel()).isEqualTo(4);
  }
}
