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

class RunningRequestsScorerTest {

  @ParameterizedTest(name = "running [{0}] -> [{1}]")
  @CsvSource({
    "0 10 20,   1 0.5 0",
    "5 5 5,     1 1 1",
    "42,        1",
    "100 0 25,  0 1 0.75",
  })
  void minMaxOfScrapedRunningIgnoringPendingPicks(String running, String expected) {
    int[] r = Tables.ints(running);
    List<Candidate> candidates = new ArrayList<>();
    for (int i = 0; i < r.length; i++) {
      // Pending picks are queued, not running: they must not change the running score.
      candidates.add(
          Fixtures.candidate(
              "10.0.0." + i + ":8000",
              null,
              Fixtures.metrics(0, r[i], 0.0),
              Fixtures.pending(i * 3, 1000)));
    }
    double[] out = new double[r.length];

    new RunningRequestsScorer()
        .score(Fixtures.request(null, "", 100), candidates, new CycleState(0, new long[0]), out);

    assertThat(out).containsExactly(Tables.doubles(expected), within(1e-9));
  }
}
