package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueuedWorkTest {

  @Test
  void eachEndpointHasItsOwnMeanOnceItHasSeenEnough() {
    QueuedWork w = new QueuedWork();
    assertThat(w.mean()).isNaN();
    assertThat(w.mean("cache-rich")).isNaN();
    // a cache-rich endpoint gets the cached questions (100 uncached tokens), another the misses
    for (int i = 0; i < 200; i++) {
      w.add("cache-rich", 100);
      w.add("misses", 3_000);
    }
    assertThat(w.mean("cache-rich")).isCloseTo(100, within(1.0));
    assertThat(w.mean("misses")).isCloseTo(3_000, within(1.0));
    assertThat(w.mean()).isBetween(100.0, 3_000.0);
    // an endpoint with too few requests of its own is priced at the pool's mean
    for (int i = 0; i < QueuedWork.WARM_UP - 1; i++) {
      w.add("new", 10);
    }
    assertThat(w.mean("new")).isEqualTo(w.mean());
    w.add("new", 10);
    assertThat(w.mean("new")).isCloseTo(10, within(0.01));
  }

  @Test
  void nonsenseIsIgnoredAndEndpointsThatLeftAreForgotten() {
    QueuedWork w = new QueuedWork();
    for (int i = 0; i < 50; i++) {
      w.add("a", 500);
      w.add("b", 50);
      w.add("a", Double.NaN);
      w.add("a", -1);
      w.add("a", Double.POSITIVE_INFINITY);
    }
    assertThat(w.mean("a")).isCloseTo(500, within(0.01));
    w.retain(List.of("b"));
    assertThat(w.mean("a")).isEqualTo(w.mean());
    assertThat(w.mean("b")).isCloseTo(50, within(0.01));
  }
}
