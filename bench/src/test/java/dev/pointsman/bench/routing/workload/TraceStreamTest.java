package dev.pointsman.bench.routing.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.FleetFile;
import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.bench.routing.scenario.ProductionSpec;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.bench.routing.scenario.TraceScenarios;
import dev.pointsman.bench.routing.trace.Trace;
import dev.pointsman.bench.routing.trace.TraceFiles;
import dev.pointsman.sim.engine.Segment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceStreamTest {
  @TempDir Path dir;

  /** Four rows over 3 s: ids 0 and 1 shared by rows 0 and 2, row 1 burst right after row 0. */
  private Scenario small(Integer contextTokens) throws Exception {
    Path file = dir.resolve("small.jsonl");
    Files.writeString(
        file,
        """
        {"timestamp": 0, "input_length": 1100, "output_length": 20, "hash_ids": [0, 1, 2]}
        {"timestamp": 100, "input_length": 600, "output_length": 30, "hash_ids": [5, 6]}
        {"timestamp": 2000, "input_length": 1300, "output_length": 40, "hash_ids": [0, 1, 9]}
        {"timestamp": 3000, "input_length": 300, "output_length": 50}
        """);
    return TraceScenarios.of(
        file.toString(),
        new FleetFile(null, contextTokens, List.of(new PodGroup("H100-80", 1, null, null, null))));
  }

  @Test
  void theWindowHoldsRateTimesDurationRowsSpacedAsInTheTrace() {
    Scenario t3 = Scenarios.load("t3");
    Trace trace = TraceFiles.load(t3.trace());
    List<BenchRequest> stream = RequestStream.generate(t3, 20, 60_000, 1);
    TraceStream.Window w = TraceStream.window(trace, 20, 60_000, 1, Integer.MAX_VALUE);
    assertThat(stream).hasSizeBetween(1195, 1200);
    assertThat(stream.get(stream.size() - 1).arrivalMs()).isLessThan(60_000);
    // the trace's own gaps, divided by one speed-up
    for (int j = 1; j < 50; j++) {
      double gap = stream.get(j).arrivalMs() - stream.get(j - 1).arrivalMs();
      double traceGap = trace.timeMs(w.startRow() + j) - trace.timeMs(w.startRow() + j - 1);
      assertThat(gap).isCloseTo(traceGap / w.speedup(), org.assertj.core.data.Offset.offset(1e-6));
      assertThat(stream.get(j).sim().promptTokens()).isEqualTo(trace.inputTokens(w.startRow() + j));
      assertThat(stream.get(j).sim().outputTokens())
          .isEqualTo(trace.outputTokens(w.startRow() + j));
    }
    // 20 req/s is about 3.7× the trace's own rate
    assertThat(w.speedup()).isBetween(2.5, 5.0);
    assertThat(RequestStream.generate(t3, 20, 60_000, 1)).isEqualTo(stream);
    assertThat(RequestStream.generate(t3, 20, 60_000, 2)).isNotEqualTo(stream);
  }

  @Test
  void sharedHashIdsShareTokensAndText() throws Exception {
    Scenario s = small(null);
    // seed whose window starts at row 0: try seeds until one does (deterministic)
    List<BenchRequest> stream = null;
    for (long seed = 1; stream == null; seed++) {
      if (TraceStream.window(TraceFiles.load(s.trace()), 1, 4000, seed, 4).startRow() == 0) {
        stream = RequestStream.generate(s, 1, 4000, seed);
      }
    }
    assertThat(stream).hasSize(4);
    List<Segment> a = stream.get(0).sim().prompt();
    List<Segment> c = stream.get(2).sim().prompt();
    assertThat(a).extracting(Segment::length).containsExactly(512, 512, 76);
    assertThat(c).extracting(Segment::length).containsExactly(512, 512, 276);
    assertThat(c.subList(0, 2)).isEqualTo(a.subList(0, 2));
    assertThat(c.get(2).contentId()).isNotEqualTo(a.get(2).contentId());
    assertThat(stream.get(1).sim().prompt().get(0)).isNotEqualTo(a.get(0));
    assertThat(stream.get(3).sim().prompt()).hasSize(1);
    // the gateway's text: a shared 512-token block renders to the same text in every request
    PromptText text = new PromptText(TextMix.defaults());
    assertThat(text.render(c.get(0)) + text.render(c.get(1)))
        .isEqualTo(text.render(a.get(0)) + text.render(a.get(1)));
    assertThat(text.render(c.get(2))).isNotEqualTo(text.render(a.get(2)));
    // spacing kept: the burst right after row 0, then the lull
    assertThat(stream.get(1).arrivalMs() - stream.get(0).arrivalMs())
        .isLessThan((stream.get(2).arrivalMs() - stream.get(1).arrivalMs()) / 10);
  }

  @Test
  void aWindowLongerThanTheTraceWrapsWithFreshContent() throws Exception {
    Scenario s = small(null);
    List<BenchRequest> stream = RequestStream.generate(s, 1, 12_000, 5);
    assertThat(stream).hasSizeBetween(11, 12);
    long shared = 0;
    for (int i = 0; i < stream.size(); i++) {
      for (int j = i + 1; j < stream.size(); j++) {
        if (stream.get(i).sim().prompt().get(0).equals(stream.get(j).sim().prompt().get(0))) {
          shared++;
          // rows 0 and 2 of one lap are 2 rows apart; a later lap does not share with this one
          assertThat(j - i).isEqualTo(2);
        }
      }
    }
    assertThat(shared).isBetween(2L, 3L);
  }

  @Test
  void requestsOverTheContextAreCutAndMarked() throws Exception {
    List<BenchRequest> stream = RequestStream.generate(small(1000), 1, 4000, 3);
    for (BenchRequest r : stream) {
      assertThat(r.sim().promptTokens() + r.sim().outputTokens()).isLessThanOrEqualTo(1000);
      // rows of 1,120 and 1,340 tokens are cut to exactly the context; 630 and 350 fit
      assertThat(r.cut()).isEqualTo(r.sim().promptTokens() + r.sim().outputTokens() == 1000);
    }
    assertThat(stream).filteredOn(BenchRequest::cut).hasSize(2);
  }

  @Test
  void aReplayHonoursTheShareOfNonStreamedRequests() {
    Scenario t3 = Scenarios.load("t3");
    ProductionSpec defaults = t3.production();
    Scenario mixed =
        t3.withProduction(
            "t3-mixed",
            new ProductionSpec(
                defaults.pickerReplicas(), defaults.envoys(), 0.3, defaults.text(), false, null));
    List<BenchRequest> stream = RequestStream.generate(mixed, 20, 60_000, 1);
    long streamed = stream.stream().filter(BenchRequest::streamed).count();
    assertThat((double) streamed / stream.size()).isBetween(0.25, 0.35);
    assertThat(RequestStream.generate(t3, 20, 60_000, 1)).allMatch(BenchRequest::streamed);
  }
}
