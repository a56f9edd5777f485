package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueueScorerTest {

  @ParameterizedTest(name = "waiting [{0}] + pending [{1}] -> [{2}]")
  @CsvSource({
    "0 5 10,   0 0 0,  1 0.5 0",
    "2 0 1,    0 2 0,  0 0 1",
    "3 3,      0 0,    1 1",
    "7,        3,      1",
    "0 2 8,    4 0 0,  0.6666666667 1 0",
    "0 0 0 0,  0 1 2 3, 1 0.6666666667 0.3333333333 0",
  })
  void minMaxOfScrapedPlusPendingWaiting(String waiting, String pending, String expected) {
    int[] w = Tables.ints(waiting);
    int[] p = Tables.ints(pending);
    List<Candidate> candidates = new ArrayList<>();
    for (int i = 0; i < w.length; i++) {
      candidates.add(
          Fixtures.candidate(
              "10.0.0." + i + ":8000",
              null,
              Fixtures.metrics(w[i], 0, 0.0),
              Fixtures.pending(p[i], 0)));
    }
    double[] out = new double[w.length];

    new QueueScorer()
        .score(Fixtures.request(null, "", 100), candidates, new CycleState(0, new long[0]), out);

    assertThat(out).containsExactly(Tables.doubles(expected), within(1e-9));
  }
}
