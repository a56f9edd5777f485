package dev.pointsman.bench.routing.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenariosTest {

  @Test
  void everyShippedScenarioLoadsByShortName() {
    for (String name : List.of("s1", "s2", "s3", "s4", "s5")) {
      Scenario s = Scenarios.load(name);
      assertThat(s.name()).startsWith(name + "-");
      assertThat(s.instances()).isNotEmpty();
      assertThat(s.quickVersion().durationSeconds()).isLessThanOrEqualTo(s.durationSeconds());
    }
  }

  @Test
  void everyScenarioFileInTheRepositoryLoads() throws Exception {
    Path root = Path.of("scenarios");
    List<Path> files = scenarioFiles(root);
    assertThat(files)
        .extracting(f -> root.relativize(f).toString())
        .contains("wide/s1-heterogeneous.yaml", "extra/x2-rag-square.yaml");
    for (Path f : files) {
      Scenario s = Scenarios.load(f.toString());
      assertThat(s.instances()).as(f.toString()).isNotEmpty();
      assertThat(s.loads()).as(f.toString()).isNotEmpty().isSorted();
    }
  }

  @Test
  void theTrainingSetIsExactlyTheDeclaredOneAndEveryShippedFileSaysWhichSetItIsIn()
      throws Exception {
    Path root = Path.of("scenarios");
    List<Path> files = scenarioFiles(root);
    List<String> train = new java.util.ArrayList<>();
    for (Path f : files) {
      assertThat(Files.readString(f)).as(f.toString()).containsPattern("(?m)^split: (train|test)");
      Scenario s = Scenarios.load(f.toString());
      for (Scenario i : s.instances()) {
        assertThat(i.split()).as(i.name()).isEqualTo(s.split()); // variants inherit
      }
      if (s.split().equals(Scenario.TRAIN)) {
        train.add(root.relativize(f).toString());
      }
    }
    // docs/benchmarks.md, "Train and test": S1–S5 (and their wide ladders and the mismatch
    // suite's copy of S1), X1–X4 and the traces of shared/traces; X5 is held out
    assertThat(train)
        .containsExactlyInAnyOrder(
            "s1-heterogeneous.yaml",
            "s2-bursty.yaml",
            "s3-shared-prefix.yaml",
            "s4-multi-lora.yaml",
            "s5-mixed.yaml",
            "wide/s1-heterogeneous.yaml",
            "wide/s1-heterogeneous-300s.yaml",
            "wide/s2-bursty.yaml",
            "wide/s2-bursty-long.yaml",
            "wide/s5-mixed-480s.yaml",
            "mismatch/m1-heterogeneous.yaml",
            "extra/x1-lora-heterogeneous.yaml",
            "extra/x2-rag-square.yaml",
            "extra/x3-multi-turn-heterogeneous.yaml",
            "extra/x4-lora-placement.yaml",
            "traces/t1-mooncake-heterogeneous.yaml",
            "traces/t2-mooncake-homogeneous.yaml",
            "traces/t3-azure-heterogeneous.yaml",
            "traces/t4-azure-homogeneous.yaml",
            "traces/t5-azure-70b.yaml");
  }

  @Test
  void aScenarioNobodyDeclaredIsHeldOutAndAnUnknownSplitIsRefused(@TempDir Path dir)
      throws Exception {
    Path plain = dir.resolve("plain.yaml");
    Files.writeString(
        plain,
        """
        name: plain
        fleet: [{gpu: L4, count: 2}]
        workload: [{kind: sharegpt}]
        loads: [0.2]
        """);
    assertThat(Scenarios.load(plain.toString()).split()).isEqualTo(Scenario.TEST);

    Path wrong = dir.resolve("wrong.yaml");
    Files.writeString(wrong, Files.readString(plain).replace("name: plain", "name: w\nsplit: dev"));
    assertThatThrownBy(() -> Scenarios.load(wrong.toString()))
        .hasMessageContaining("split: 'dev' (expected 'train' or 'test')");
  }

  @Test
  void variantsBecomeScenariosOfTheirOwn() {
    List<Scenario> s2 = Scenarios.load("s2-bursty").instances();
    assertThat(s2)
        .extracting(Scenario::name)
        .containsExactly(
            "s2-bursty-cv1",
            "s2-bursty-cv2",
            "s2-bursty-cv3.5",
            "s2-bursty-square",
            "s2-bursty-a100-control");
    assertThat(s2.get(4).pods()).isEqualTo(8);
    assertThat(s2.get(4).fleet()).singleElement().extracting(PodGroup::gpu).isEqualTo("A100-80");
    assertThat(s2.get(2).arrival().cv()).isEqualTo(3.5);
  }

  @Test
  void everyTrainingScenarioStatesItsPodsNeededRatePerVariant() {
    for (String name : List.of("s1", "s2", "s3", "s4", "s5")) {
      for (Scenario s : Scenarios.load(name).instances()) {
        assertThat(s.rateReqPerS()).as(s.name()).isNotNull().isPositive();
      }
    }
    List<Scenario> s3 = Scenarios.load("s3").instances();
    // each variant its own: long shared prompts and plain chat differ by an order of magnitude
    assertThat(s3).extracting(Scenario::rateReqPerS).doesNotHaveDuplicates();
  }

  @Test
  void anotherWarmUpKeepsTheMeasuredWindow() {
    Scenario s5 = Scenarios.load("s5");
    for (double w : new double[] {0, 40}) {
      Scenario other = s5.withWarmupSeconds(s5.name(), w);
      assertThat(other.warmupSeconds()).isEqualTo(w);
      assertThat(other.durationSeconds() - other.warmupSeconds())
          .isEqualTo(s5.durationSeconds() - s5.warmupSeconds());
      assertThat(other.rateReqPerS()).isEqualTo(s5.rateReqPerS());
    }
  }

  @Test
  void doublingTheMeasuredWindowKeepsTheWarmUp(@TempDir Path dir) throws Exception {
    Scenario s1 = Scenarios.load("s1");
    Scenario twice = s1.withMeasuredWindowTimes(2);
    assertThat(twice.warmupSeconds()).isEqualTo(s1.warmupSeconds());
    assertThat(twice.durationSeconds() - twice.warmupSeconds())
        .isEqualTo(2 * (s1.durationSeconds() - s1.warmupSeconds()));
    assertThat(twice.drainSeconds()).isEqualTo(s1.drainSeconds());
  }

  @Test
  void s5IsTheMixedHeadline() {
    Scenario s5 = Scenarios.load("s5");
    assertThat(s5.workload())
        .extracting(WorkloadPart::kind)
        .containsExactly("multi-turn", "sharegpt", "rag");
    assertThat(s5.lora().fraction()).isEqualTo(0.3);
    assertThat(s5.lora().adapters()).isEqualTo(8);
    assertThat(s5.arrival().cv()).isEqualTo(3.0);
    assertThat(s5.headline()).isEqualTo(0.5);
    assertThat(s5.forLoad(0.5).durationSeconds()).isEqualTo(600.0);
    assertThat(s5.forLoad(0.4).durationSeconds()).isEqualTo(s5.durationSeconds());
  }

  @Test
  void aUserFileRunsTheSameWay(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("mine.yaml");
    Files.writeString(
        file,
        """
        name: mine
        fleet: [{gpu: A10G, count: 2}]
        workload: [{kind: rag, documents: 5}]
        loads: [0.2, 0.4]
        """);
    Scenario s = Scenarios.load(file.toString());
    assertThat(s.name()).isEqualTo("mine");
    assertThat(s.scrape().intervalMs()).isEqualTo(50.0);
    assertThat(s.slo().kneeP99TtftMs()).isEqualTo(2000.0);
    assertThat(s.workload().get(0).documentTokens()).isEqualTo(2000);
  }

  @Test
  void errorsNameThePathInTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(
        file,
        """
        name: bad
        fleet: [{gpu: L4, count: 0}]
        workload: [{kind: sharegpt}]
        loads: [0.2]
        """);
    assertThatThrownBy(() -> Scenarios.load(file.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fleet[0].count: 0 (expected >= 1)");
  }

  @Test
  void loadsMustAscend(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(
        file,
        """
        name: bad
        fleet: [{gpu: L4}]
        workload: [{kind: chat}]
        loads: [0.2]
        """);
    assertThatThrownBy(() -> Scenarios.load(file.toString()))
        .hasMessageContaining("workload[0].kind: 'chat'");
    assertThatThrownBy(
            () ->
                new Scenario(
                    "x",
                    null,
                    null,
                    List.of(new PodGroup("L4", 1, null, null, null)),
                    List.of(WorkloadPart.of("sharegpt")),
                    null,
                    null,
                    List.of(0.4, 0.2),
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null))
        .hasMessageContaining("loads[1]: 0.2 (expected ascending loads)");
  }

  @Test
  void unknownNamesSayWhatIsExpected() {
    assertThatThrownBy(() -> Scenarios.load("s9"))
        .hasMessageContaining("'s9'")
        .hasMessageContaining("s1-heterogeneous");
  }

  /** Every scenario file under {@code root} (the module runs with bench/ as its directory). */
  private static List<Path> scenarioFiles(Path root) throws java.io.IOException {
    try (var walk = Files.walk(root)) {
      return walk.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
  }
}
