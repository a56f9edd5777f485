package dev.pointsman.picker.scheduling.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.LoraState;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AdapterLoadModelTest {
  private static final double PRIOR_LOAD = 0.5;
  private static final double PRIOR_WAIT = 2.0;

  private final AdapterLoadModel model = new AdapterLoadModel();

  private double price(String endpoint, LoraState state, int ahead) {
    return model.price(endpoint, state, ahead, PRIOR_LOAD, PRIOR_WAIT);
  }

  @Test
  void residentAdaptersAndBaseModelRequestsCostNothing() {
    model.observe("p1", LoraState.COLD_LOAD, 0, 3.0);
    assertThat(price("p1", LoraState.NONE, 5)).isZero();
    assertThat(price("p1", LoraState.RESIDENT, 5)).isZero();
  }

  @Test
  void untrainedPricesAreThePriorsAndLoadsQueueBehindEachOther() {
    assertThat(price("p1", LoraState.COLD_LOAD, 0)).isEqualTo(PRIOR_LOAD);
    assertThat(price("p1", LoraState.WARM_EVICT, 2)).isEqualTo(3 * PRIOR_LOAD);
    assertThat(price("p1", LoraState.BLOCKED, 0)).isEqualTo(PRIOR_LOAD + PRIOR_WAIT);
    assertThat(price("p1", LoraState.LOADING, 3)).isEqualTo(PRIOR_LOAD);
  }

  @Test
  void convergesOnNoisyObservedLoadTimesPerKind() {
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 400; i++) {
      model.observe("p1", LoraState.COLD_LOAD, 0, 1.0 + r.nextGaussian() * 0.05);
      model.observe("p1", LoraState.WARM_LOAD, 0, 0.25 + r.nextGaussian() * 0.02);
    }
    assertThat(price("p1", LoraState.COLD_LOAD, 0)).isCloseTo(1.0, within(0.05));
    assertThat(price("p1", LoraState.COLD_EVICT, 0)).isCloseTo(1.0, within(0.05));
    assertThat(price("p1", LoraState.WARM_LOAD, 0)).isCloseTo(0.25, within(0.03));
  }

  @Test
  void anObservationBehindQueuedLoadsTeachesThePriceOfOneLoad() {
    for (int i = 0; i < 50; i++) {
      model.observe("p1", LoraState.COLD_LOAD, 3, 4.0); // waited for 3 loads, then its own
    }
    assertThat(price("p1", LoraState.COLD_LOAD, 0)).isCloseTo(1.0, within(1e-9));
    assertThat(price("p1", LoraState.COLD_LOAD, 1)).isCloseTo(2.0, within(1e-9));
  }

  @Test
  void theWaitForASlotIsLearnedBeyondTheLoadItself() {
    for (int i = 0; i < 50; i++) {
      model.observe("p1", LoraState.COLD_LOAD, 0, 1.0);
      model.observe("p1", LoraState.BLOCKED, 0, 6.0);
    }
    assertThat(model.learned("p1", AdapterLoadModel.Kind.SLOT_WAIT)).isCloseTo(5.0, within(0.01));
    assertThat(price("p1", LoraState.BLOCKED, 0)).isCloseTo(6.0, within(0.01));
  }

  @Test
  void adaptsWhenAnEndpointsLoadsBecomeSlower() {
    for (int i = 0; i < 100; i++) {
      model.observe("p1", LoraState.COLD_LOAD, 0, 1.0);
    }
    for (int i = 0; i < 60; i++) {
      model.observe("p1", LoraState.COLD_LOAD, 0, 3.0);
    }
    assertThat(price("p1", LoraState.COLD_LOAD, 0)).isGreaterThan(2.9);
  }

  @Test
  void anEndpointWithFewLoadsOfItsOwnUsesThePoolsPrice() {
    for (int i = 0; i < 20; i++) {
      model.observe("p1", LoraState.COLD_LOAD, 0, 2.0);
    }
    assertThat(price("p2", LoraState.COLD_LOAD, 0)).isCloseTo(2.0, within(1e-9));
    model.observe("p2", LoraState.COLD_LOAD, 0, 0.2);
    model.observe("p2", LoraState.COLD_LOAD, 0, 0.2);
    assertThat(price("p2", LoraState.COLD_LOAD, 0))
        .as("2 of its own: pool-wide still")
        .isGreaterThan(1.5);
    model.observe("p2", LoraState.COLD_LOAD, 0, 0.2);
    assertThat(price("p2", LoraState.COLD_LOAD, 0)).isCloseTo(0.2, within(1e-9));
  }

  @Test
  void ignoresNonsenseAndRequestsThatTriggeredNoLoad() {
    model.observe("p1", LoraState.COLD_LOAD, 0, Double.NaN);
    model.observe("p1", LoraState.COLD_LOAD, 0, Double.POSITIVE_INFINITY);
    model.observe("p1", LoraState.RESIDENT, 0, 9.0);
    model.observe("p1", LoraState.LOADING, 0, 9.0);
    assertThat(model.learned("p1", AdapterLoadModel.Kind.COLD)).isNaN();
    model.observe("p1", LoraState.COLD_LOAD, 0, -4.0); // faster than the base prediction
    assertThat(model.learned("p1", AdapterLoadModel.Kind.COLD)).isZero();
  }

  @Test
  void forgetsEndpointsThatLeave() {
    for (int i = 0; i < 5; i++) {
      model.observe("p1", LoraState.COLD_LOAD, 0, 1.0);
      model.observe("p2", LoraState.COLD_LOAD, 0, 3.0);
    }
    model.retain(List.of("p2"));
    // p1's own figures are gone: it is priced from the pool-wide mean again
    assertThat(price("p1", LoraState.COLD_LOAD, 0)).isNotEqualTo(1.0);
    assertThat(price("p2", LoraState.COLD_LOAD, 0)).isEqualTo(3.0);
  }
}
