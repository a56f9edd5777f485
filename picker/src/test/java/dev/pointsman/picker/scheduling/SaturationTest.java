package dev.pointsman.picker.scheduling;

import static dev.pointsman.picker.scheduling.Fixtures.candidate;
import static dev.pointsman.picker.scheduling.Fixtures.metrics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SaturationTest {
  private final Saturation saturation = new Saturation(4, 0.8, 1);

  @Test
  void loadIsTheLeastLoadedEndpointsQueueAsAShareOfTheThreshold() {
    List<Candidate> pods =
        List.of(
            candidate("10.0.0.1:8000", metrics(3, 8, 0.5)),
            candidate("10.0.0.2:8000", metrics(2, 8, 0.5)));

    assertThat(saturation.load(pods)).isEqualTo(0.5);
    assertThat(saturation.saturated(pods)).isFalse();
  }

  @Test
  void anEndpointOverTheKvThresholdCountsAsFull() {
    List<Candidate> pods =
        List.of(
            candidate("10.0.0.1:8000", metrics(0, 8, 0.9)),
            candidate("10.0.0.2:8000", metrics(3, 8, 0.5)));

    assertThat(saturation.load(pods)).isEqualTo(0.75);
  }

  @Test
  void aSaturatedPoolHasLoadOne() {
    List<Candidate> pods =
        List.of(
            candidate("10.0.0.1:8000", metrics(6, 8, 0.5)),
            candidate("10.0.0.2:8000", metrics(0, 8, 0.95)));

    assertThat(saturation.saturated(pods)).isTrue();
    assertThat(saturation.load(pods)).isEqualTo(1.0);
    assertThat(saturation.load(List.of())).isEqualTo(1.0);
  }

  @Test
  void anIdleEndpointHasLoadZero() {
    assertThat(saturation.load(List.of(candidate("10.0.0.1:8000", metrics(0, 0, 0.0))))).isZero();
  }

  @Test
  void badThresholdsAreNamed() {
    assertThatThrownBy(() -> new Saturation(0, 0.8, 1))
        .hasMessage("saturation.queueThreshold: 0 (expected >= 1)");
  }
}
