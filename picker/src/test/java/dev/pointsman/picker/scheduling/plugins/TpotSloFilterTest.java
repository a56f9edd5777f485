package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.Fixtures;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.latency.LatencyModel;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TpotSloFilterTest {
  private static final EndpointMetrics LIGHT =
      new EndpointMetrics(0, 8, 0.05, 448_000, Set.of(), Set.of(), -1, Double.NaN, 0);

  private final Candidate h100 =
      Fixtures.candidate("10.0.0.1:8000", "H100-80", LIGHT, InFlightTracker.Load.NONE);
  private final Candidate l4 =
      Fixtures.candidate("10.0.0.2:8000", "L4", LIGHT, InFlightTracker.Load.NONE);
  private final List<Candidate> both = List.of(h100, l4);
  private final LatencyModel tpot = LatencyModel.forTpot();

  private CycleState state() {
    return new CycleState(0, new long[0], null, null, null, null, null, tpot);
  }

  private static SchedulingRequest withSlo(double seconds) {
    return new SchedulingRequest("r", "m", null, "", 500, -1, false, null, seconds);
  }

  @Test
  void keepsOnlyEndpointsPredictedToMeetTheObjective() {
    // the priors' decode floors for an 8B model: an L4's 107 ms a token, an H100's under 10 ms
    assertThat(new TpotSloFilter().filter(withSlo(0.050), both, state())).containsExactly(h100);
  }

  @Test
  void withoutAnObjectiveOrWhenNoneCanMeetItEveryEndpointStays() {
    TpotSloFilter f = new TpotSloFilter();
    assertThat(f.filter(SchedulingRequest.of("r", "m", 500), both, state())).isEqualTo(both);
    assertThat(f.filter(withSlo(0.001), both, state())).isEqualTo(both);
  }

  @Test
  void followsWhatTheLearnedModelObserved() {
    // this H100 turns out 20× slower than its label says (throttled, or a noisy neighbour)
    double analytic = state().predictTpotSeconds(h100, withSlo(0.05));
    for (int i = 0; i < 50; i++) {
      tpot.observe(h100.address(), analytic, analytic * 20);
    }
    assertThat(state().predictTpotSeconds(h100, withSlo(0.05))).isGreaterThan(0.1);
    Candidate otherH100 =
        Fixtures.candidate("10.0.0.3:8000", "H100-80", LIGHT, InFlightTracker.Load.NONE);
    assertThat(new TpotSloFilter().filter(withSlo(0.050), List.of(h100, l4, otherH100), state()))
        .containsExactly(otherH100);
  }

  @Test
  void aBusierBatchPredictsSlowerTokens() {
    EndpointMetrics busy =
        new EndpointMetrics(0, 240, 0.9, 448_000, Set.of(), Set.of(), -1, Double.NaN, 0);
    Candidate loaded = Fixtures.candidate("10.0.0.4:8000", "A100-80", busy, Fixtures.pending(4, 0));
    Candidate idle =
        Fixtures.candidate("10.0.0.5:8000", "A100-80", LIGHT, InFlightTracker.Load.NONE);
    assertThat(state().predictTpotSeconds(loaded, withSlo(0.05)))
        .isGreaterThan(2 * state().predictTpotSeconds(idle, withSlo(0.05)));
  }

  @Test
  void thePoolsObjectiveAppliesToRequestsWithoutTheirOwn() {
    TpotSloFilter pool = new TpotSloFilter(0.050);
    assertThat(pool.filter(SchedulingRequest.of("r", "m", 500), both, state()))
        .containsExactly(h100);
    // a request's own objective wins over the pool's, looser or stricter
    assertThat(pool.filter(withSlo(1.0), both, state())).isEqualTo(both);
    assertThat(new TpotSloFilter(1.0).filter(withSlo(0.050), both, state())).containsExactly(h100);
  }

  @Test
  void anObjectiveOutOfRangeIsRefusedWithItsName() {
    assertThatThrownBy(() -> new TpotSloFilter(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("objectiveMs");
    assertThatThrownBy(() -> new TpotSloFilter(-0.05)).hasMessageContaining("objectiveMs");
  }
}
