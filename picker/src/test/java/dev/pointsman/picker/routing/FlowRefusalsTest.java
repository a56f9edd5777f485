package dev.pointsman.picker.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.flowcontrol.DropReason;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.Pressure;
import org.junit.jupiter.api.Test;

class FlowRefusalsTest {
  private static final FlowLimits LIMITS = new FlowLimits(50, 1_000, 2_000_000_000L);

  @Test
  void aFullQueueNamesEveryBoundThatCouldHaveRefusedIt() {
    RouteOutcome.Rejected bounded =
        FlowRefusals.of(DropReason.OVERFLOW, Pressure.FREE, 1, LIMITS, 4_096);
    RouteOutcome.Rejected unbounded =
        FlowRefusals.of(DropReason.OVERFLOW, Pressure.FREE, 1, LIMITS, Long.MAX_VALUE);

    assertThat(bounded.error().httpStatus()).isEqualTo(429);
    assertThat(bounded.error().code()).isEqualTo("queue_full");
    assertThat(bounded.error().message())
        .isEqualTo(
            "pool saturated and the picker's queue is full (flowControl.maxQueued 50,"
                + " maxQueuedBytes 1000, maxQueuedBytesTotal 4096)");
    assertThat(unbounded.error().message())
        .isEqualTo(
            "pool saturated and the picker's queue is full (flowControl.maxQueued 50,"
                + " maxQueuedBytes 1000)");
  }
}
