package dev.pointsman.bench.routing.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.sim.engine.Segment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestStreamTest {
  private final Scenario s5 = Scenarios.load("s5");

  @Test
  void sameSeedSameStream() {
    List<BenchRequest> a = RequestStream.generate(s5, 40, 60_000, 7);
    List<BenchRequest> b = RequestStream.generate(s5, 40, 60_000, 7);
    assertThat(a).isEqualTo(b);
    assertThat(RequestStream.generate(s5, 40, 60_000, 8)).isNotEqualTo(a);
  }

  @Test
  void theMixFollowsTheWeights() {
    List<BenchRequest> stream = RequestStream.generate(s5, 100, 600_000, 1);
    Map<String, Integer> kinds = new HashMap<>();
    int lora = 0;
    for (BenchRequest r : stream) {
      kinds.merge(r.kind(), 1, Integer::sum);
      lora += r.adapterOrNull() == null ? 0 : 1;
    }
    double n = stream.size();
    assertThat(kinds.get("multi-turn") / n).isBetween(0.47, 0.53);
    assertThat(kinds.get("sharegpt") / n).isBetween(0.27, 0.33);
    assertThat(kinds.get("rag") / n).isBetween(0.17, 0.23);
    assertThat(lora / n).isBetween(0.25, 0.35);
  }

  @Test
  void aLaterTurnExtendsTheEarlierTurnWithItsAnswer() {
    List<BenchRequest> stream = RequestStream.generate(s5, 50, 300_000, 3);
    boolean found = false;
    for (int i = 0; i < stream.size() && !found; i++) {
      BenchRequest first = stream.get(i);
      if (!first.kind().equals("multi-turn")) {
        continue;
      }
      for (int j = i + 1; j < stream.size(); j++) {
        List<Segment> later = stream.get(j).sim().prompt();
        List<Segment> prompt = first.sim().prompt();
        if (later.size() == prompt.size() + 2 && later.subList(0, prompt.size()).equals(prompt)) {
          Segment answer = later.get(prompt.size());
          assertThat(answer.contentId()).isEqualTo(first.sim().outputContentId());
          assertThat(answer.length()).isEqualTo(first.sim().outputTokens());
          assertThat(stream.get(j).adapterOrNull()).isEqualTo(first.adapterOrNull());
          found = true;
          break;
        }
      }
    }
    assertThat(found).isTrue();
  }

  @Test
  void longPromptsKeepTheirAnswersUnderTheModelsContextLength() {
    // S5's RAG prompts are 2,180 tokens: under a 2,048-token cap every answer was 4 tokens.
    List<Integer> answers = new ArrayList<>();
    for (BenchRequest r : RequestStream.generate(s5, 50, 300_000, 3)) {
      if (r.kind().equals("rag")) {
        answers.add(r.sim().outputTokens());
        assertThat(r.sim().promptTokens() + r.sim().outputTokens())
            .isLessThanOrEqualTo(ServedContext.tokens(s5));
      }
    }
    Collections.sort(answers);
    assertThat(answers).hasSizeGreaterThan(100);
    assertThat(answers.get(answers.size() / 2)).isGreaterThan(50);
  }

  private static final String BURSTY =
      """
      name: bursty
      fleet: [{gpu: A100-80, count: 2}]
      workload:
        - {kind: sharegpt, weight: 1, tenant: steady}
        - kind: sharegpt
          weight: 3
          tenant: noisy
          arrival: {pattern: square, high: 4, highSeconds: 5, low: 0.25, lowSeconds: 15}
      arrival: {process: poisson}
      loads: [1.0]
      durationSeconds: 60
      seeds: [1]
      """;

  @Test
  void aPartWithItsOwnArrivalBurstsOnItsScheduleAtItsShareOfTheRate() {
    Scenario s = Scenarios.parse(BURSTY, "bursty");
    List<BenchRequest> stream = RequestStream.generate(s, 40, 400_000, 5);

    int[] noisy = new int[2]; // in high phases (first 5 s of each 20 s), in low ones
    int[] steady = new int[2];
    double last = -1;
    for (BenchRequest r : stream) {
      assertThat(r.sim().arrivalMs()).isGreaterThanOrEqualTo(last); // merged in time order
      last = r.sim().arrivalMs();
      int phase = r.sim().arrivalMs() % 20_000 < 5_000 ? 0 : 1;
      if ("noisy".equals(r.tenant())) {
        noisy[phase]++;
      } else {
        steady[phase]++;
      }
    }
    double n = stream.size();
    assertThat((noisy[0] + noisy[1]) / n).isBetween(0.72, 0.78);
    // the noisy part's rate per ms: 16x higher in a high phase than in a low one (4 / 0.25),
    // with a high phase a third as long as a low one; the steady part's is the same in both
    assertThat(noisy[0] / (double) noisy[1]).isBetween(4.5, 6.2);
    assertThat(steady[0] / (double) steady[1]).isBetween(0.27, 0.40);
  }

  @Test
  void withoutOwnArrivalsTheArrivalsAreTheScenarioProcessAlone() {
    List<BenchRequest> stream = RequestStream.generate(s5, 40, 60_000, 7);
    // the stream's first split of the seed drives the scenario's process, as before per-part
    // arrivals: existing scenarios keep their requests
    Arrivals alone = new Arrivals(s5.arrival(), 40, new java.util.SplittableRandom(7).split());

    assertThat(stream).hasSizeGreaterThan(100);
    for (BenchRequest r : stream) {
      assertThat(r.arrivalMs()).isEqualTo(alone.next());
    }
  }
}
