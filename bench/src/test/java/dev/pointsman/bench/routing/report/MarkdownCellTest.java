package dev.pointsman.bench.routing.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.RunResults;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownCellTest {

  @Test
  void withThreeSeedsACellShowsTheMeanAndItsIntervalAndWithFewerTheMeanAlone() {
    List<RunResult> three =
        List.of(
            RunResults.ttft("p", 0.5, 1, 1000),
            RunResults.ttft("p", 0.5, 2, 2000),
            RunResults.ttft("p", 0.5, 3, 3000));
    // mean 2,000, standard deviation 1,000: t(2) 4.303 × 1,000 ÷ √3 = 2,484
    assertThat(Markdown.cell(three, r -> r.ttftMs().p99(), true)).isEqualTo("2,000 ± 2,484");
    assertThat(Markdown.cell(three.subList(0, 2), r -> r.ttftMs().p99(), true)).isEqualTo("1,500");
    assertThat(Markdown.cell(three.subList(0, 1), RunResult::goodputReqPerS, false))
        .isEqualTo("9.00");
  }
}
