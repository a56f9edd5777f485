package dev.pointsman.picker.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlowControllerTest {
  private static final long MS = 1_000_000L;

  private final Probe probe = new Probe();
  private final Sink sink = new Sink();
  private long now = 1_000 * MS;
  private long ids;

  private FlowController<String> controller(int maxQueued, long maxBytes, long ttlMillis) {
    return new FlowController<>(
        new FlowLimits(maxQueued, maxBytes, ttlMillis * MS), FlowListener.NONE);
  }

  private FlowController<String> controller() {
    return controller(100, 1 << 20, 30_000);
  }

  private FlowRequest request(int priority, String tenant, long tokens, long deadlineMillis) {
    long deadline = deadlineMillis < 0 ? FlowRequest.NO_DEADLINE : now + deadlineMillis * MS;
    return new FlowRequest("r" + ids++, priority, tenant, tokens, tokens, 100, now, deadline);
  }

  private Queued<String> admit(FlowController<String> c, FlowRequest r, String name) {
    return c.admit(r, name, probe, sink);
  }

  @Test
  void aRequestGoesAtOnceWhileThePoolHasRoomAndNobodyWaits() {
    FlowController<String> c = controller();

    Queued<String> q = admit(c, request(0, "a", 10, -1), "x");

    assertThat(q).isNull();
    assertThat(sink.dispatched).containsExactly("x");
    assertThat(c.size()).isZero();
  }

  @Test
  void bandsAreStrictHighestPriorityFirst() {
    FlowController<String> c = controller();
    probe.saturated = true;
    admit(c, request(0, "a", 10, -1), "p0-first");
    admit(c, request(-1, "a", 10, -1), "sheddable");
    admit(c, request(5, "a", 10, -1), "p5");
    admit(c, request(0, "a", 10, -1), "p0-second");
    assertThat(sink.dispatched).isEmpty();
    assertThat(c.size()).isEqualTo(4);

    probe.saturated = false;
    c.pump(now, probe, sink);

    assertThat(sink.dispatched).containsExactly("p5", "p0-first", "p0-second", "sheddable");
    assertThat(c.size()).isZero();
  }

  @Test
  void aTenantSendingFiveTimesMoreGetsNoMoreThanItsShareOfDispatches() {
    FlowController<String> c = controller();
    probe.saturated = true;
    for (int i = 0; i < 50; i++) {
      admit(c, request(0, "noisy", 500, -1), "noisy");
    }
    for (int i = 0; i < 10; i++) {
      admit(c, request(0, "quiet", 500, -1), "quiet");
    }

    probe.saturated = false;
    c.pump(now, probe, sink);

    List<String> first20 = sink.dispatched.subList(0, 20);
    assertThat(first20.stream().filter("noisy"::equals).count()).isBetween(9L, 11L);
    assertThat(sink.dispatched).hasSize(60);
  }

  @Test
  void fairnessIsInTokensNotRequests() {
    FlowController<String> c = controller();
    probe.saturated = true;
    for (int i = 0; i < 50; i++) {
      admit(c, request(0, "big", 1000, -1), "big");
    }
    for (int i = 0; i < 20; i++) {
      admit(c, request(0, "small", 200, -1), "small");
    }

    probe.saturated = false;
    c.pump(now, probe, sink);

    // while "small" is backlogged (its 20 x 200 = 4000 tokens), "big" gets about as many tokens
    int lastSmall = sink.dispatched.lastIndexOf("small");
    long bigTokens =
        sink.dispatched.subList(0, lastSmall).stream().filter("big"::equals).count() * 1000;
    assertThat(bigTokens).isBetween(4000L - 1000 - Band.QUANTUM, 4000L + 1000 + Band.QUANTUM);
  }

  @Test
  void withinATenantEarliestDeadlineFirstThenArrival() {
    FlowController<String> c = controller();
    probe.saturated = true;
    admit(c, request(0, "a", 10, -1), "none-1");
    admit(c, request(0, "a", 10, 900), "d900");
    admit(c, request(0, "a", 10, 300), "d300");
    admit(c, request(0, "a", 10, -1), "none-2");
    admit(c, request(0, "a", 10, 600), "d600");

    probe.saturated = false;
    c.pump(now, probe, sink);

    assertThat(sink.dispatched).containsExactly("d300", "d600", "d900", "none-1", "none-2");
  }

  @Test
  void aRequestPastItsTtlIsRefusedWithThePoolsEndpointsKnown() {
    FlowController<String> c = controller(100, 1 << 20, 1_000);
    probe.saturated = true;
    admit(c, request(0, "a", 10, -1), "old");
    now += 600 * MS;
    admit(c, request(0, "a", 10, -1), "young");

    now += 400 * MS;
    c.pump(now, probe, sink);

    assertThat(sink.dropped).containsExactly("old:ttl:endpoints");
    assertThat(c.size()).isEqualTo(1);

    probe.hasEndpoints = false;
    now += 600 * MS;
    c.pump(now, probe, sink);
    assertThat(sink.dropped).containsExactly("old:ttl:endpoints", "young:ttl:none");
  }

  @Test
  void ttlsAreLookedAtNoMoreOftenThanTheSweepInterval() {
    FlowController<String> c = controller(100, 1 << 20, 100);
    probe.saturated = true;
    admit(c, request(0, "a", 10, -1), "r");
    now += 95 * MS;
    c.pump(now, probe, sink); // swept: 5 ms of TTL left

    now += 5 * MS;
    c.pump(now, probe, sink);
    assertThat(sink.dropped).as("within the sweep interval").isEmpty();

    now += FlowController.SWEEP_NANOS - 5 * MS;
    c.pump(now, probe, sink);
    assertThat(sink.dropped).containsExactly("r:ttl:endpoints");
  }

  @Test
  void overflowEvictsQueuedSheddableWorkFirstThenRefusesTheNewcomer() {
    FlowController<String> c = controller(3, 1 << 20, 30_000);
    probe.saturated = true;
    admit(c, request(-1, "a", 10, -1), "shed-old");
    admit(c, request(-1, "a", 10, -1), "shed-new");
    admit(c, request(0, "a", 10, -1), "c1");

    admit(c, request(0, "a", 10, -1), "c2");
    assertThat(sink.dropped).containsExactly("shed-new:evicted:endpoints");

    admit(c, request(0, "a", 10, -1), "c3");
    admit(c, request(0, "a", 10, -1), "c4");
    admit(c, request(-1, "a", 10, -1), "shed-late");
    assertThat(sink.dropped)
        .containsExactly(
            "shed-new:evicted:endpoints",
            "shed-old:evicted:endpoints",
            "c4:overflow:endpoints",
            "shed-late:overflow:endpoints");
    assertThat(c.size()).isEqualTo(3);
  }

  @Test
  void theByteBoundCountsToo() {
    FlowController<String> c = controller(100, 250, 30_000);
    probe.saturated = true;
    admit(c, request(0, "a", 10, -1), "a1");
    admit(c, request(0, "a", 10, -1), "a2");

    admit(c, request(0, "a", 10, -1), "a3");

    assertThat(sink.dropped).containsExactly("a3:overflow:endpoints");
    assertThat(c.bytes()).isEqualTo(200);
  }

  @Test
  void queuesSharingATotalRefuseWhatNoLongerFitsInAllAndFreeItAsTheyEmpty() {
    QueuedBytes total = new QueuedBytes(250);
    FlowLimits limits = new FlowLimits(100, 1 << 20, 30_000 * MS);
    FlowController<String> a = new FlowController<>(limits, FlowListener.NONE, total);
    FlowController<String> b = new FlowController<>(limits, FlowListener.NONE, total);
    probe.saturated = true;
    Queued<String> a1 = admit(a, request(0, "t", 10, -1), "a1");
    admit(b, request(0, "t", 10, -1), "b1");

    admit(b, request(0, "t", 10, -1), "b2"); // 300 bytes in all: each queue alone has room

    assertThat(sink.dropped).containsExactly("b2:overflow:endpoints");
    assertThat(total.bytes()).isEqualTo(200);

    a.cancel(a1, now);
    assertThat(total.bytes()).isEqualTo(100);
    admit(b, request(-1, "t", 10, -1), "b-shed");
    assertThat(total.bytes()).isEqualTo(200);

    admit(b, request(0, "t", 10, -1), "b3"); // evicting b's sheddable request makes room in all
    assertThat(sink.dropped).containsExactly("b2:overflow:endpoints", "b-shed:evicted:endpoints");
    assertThat(b.size()).isEqualTo(2);

    probe.saturated = false;
    b.pump(now, probe, sink);
    assertThat(sink.dispatched).containsExactly("b1", "b3");
    assertThat(total.bytes()).isZero();
  }

  @Test
  void aTotalBoundBelowOneByteIsRefused() {
    assertThatThrownBy(() -> new QueuedBytes(0)).hasMessage("max: 0 (expected >= 1)");
  }

  @Test
  void aDeadlineNoEndpointCanMeetIsRefusedAtOnce() {
    FlowController<String> c = controller();
    probe.ttftSeconds = 2.0;

    admit(c, request(0, "a", 10, 1_000), "tight");
    admit(c, request(0, "a", 10, 3_000), "loose");

    assertThat(sink.dropped).containsExactly("tight:deadline:endpoints");
    assertThat(sink.dispatched).containsExactly("loose");
  }

  @Test
  void aDeadlineThatPassesWhileQueuedIsRefusedBeforeItsTtl() {
    FlowController<String> c = controller();
    probe.saturated = true;
    probe.ttftSeconds = 0.2;
    admit(c, request(0, "a", 10, 1_000), "slo");
    admit(c, request(0, "a", 10, -1), "no-slo");

    now += 850 * MS; // 150 ms left, 200 ms predicted
    c.pump(now, probe, sink);

    assertThat(sink.dropped).containsExactly("slo:deadline:endpoints");
    assertThat(c.size()).isEqualTo(1);
  }

  @Test
  void aCancelledRequestLeavesTheQueue() {
    FlowController<String> c = controller();
    probe.saturated = true;
    Queued<String> q = admit(c, request(0, "a", 10, -1), "gone");
    admit(c, request(0, "a", 10, -1), "stays");
    assertThat(q.waiting()).isTrue();

    assertThat(c.cancel(q, now)).isTrue();
    assertThat(c.cancel(q, now)).isFalse();
    probe.saturated = false;
    c.pump(now, probe, sink);

    assertThat(q.waiting()).isFalse();
    assertThat(sink.dispatched).containsExactly("stays");
  }

  @Test
  void dispatchStopsWhenThePoolFillsAgain() {
    FlowController<String> c = controller();
    probe.saturated = true;
    for (int i = 0; i < 5; i++) {
      admit(c, request(0, "a", 10, -1), "r" + i);
    }
    probe.saturated = false;
    probe.saturateAfter = 2;

    c.pump(now, probe, sink);

    assertThat(sink.dispatched).containsExactly("r0", "r1");
    assertThat(c.size()).isEqualTo(3);
  }

  @Test
  void aPoolWithoutEndpointsAnswersAtOnceWhenNobodyWaits() {
    FlowController<String> c = controller();
    probe.hasEndpoints = false;
    probe.saturated = true;

    admit(c, request(0, "a", 10, -1), "x");

    assertThat(sink.dispatched).containsExactly("x"); // routing answers it 503
  }

  @Test
  void sheddableWorkWaitsWhileThePoolIsWithinItsHeadroomAndCriticalWorkGoes() {
    FlowController<String> c = controller(); // default headroom 0.8
    probe.load = 0.6; // not saturated, but within the headroom

    Queued<String> sheddable = admit(c, request(-1, "a", 10, -1), "sheddable");
    admit(c, request(1, "a", 10, -1), "critical");
    admit(c, request(0, "a", 10, -1), "standard");

    assertThat(sheddable).isNotNull();
    assertThat(sink.dispatched).containsExactly("critical", "standard");
    assertThat(c.size()).isEqualTo(1);

    c.pump(now, probe, sink);
    assertThat(sink.dispatched).containsExactly("critical", "standard");

    probe.load = 0.1;
    c.pump(now, probe, sink);
    assertThat(sink.dispatched).containsExactly("critical", "standard", "sheddable");
    assertThat(c.size()).isZero();
  }

  @Test
  void aSheddableArrivalGoesAtOnceWhenThePoolHasHeadroom() {
    FlowController<String> c = controller();
    probe.load = 0.1;

    assertThat(admit(c, request(-1, "a", 10, -1), "sheddable")).isNull();
    assertThat(sink.dispatched).containsExactly("sheddable");
  }

  @Test
  void sheddableWorkHeldInTheHeadroomIsRefusedAtItsTtl() {
    FlowController<String> c = controller(100, 1 << 20, 500);
    probe.load = 0.8;
    admit(c, request(-2, "a", 10, -1), "sheddable");

    now += 500 * MS;
    c.pump(now, probe, sink);

    assertThat(sink.dispatched).isEmpty();
    assertThat(sink.dropped).containsExactly("sheddable:ttl:endpoints");
  }

  @Test
  void withoutHeadroomSheddableWorkGoesWheneverThePoolIsNotSaturated() {
    FlowController<String> c =
        new FlowController<>(new FlowLimits(100, 1 << 20, 30_000 * MS, 0), FlowListener.NONE);
    probe.load = 0.9;

    c.admit(request(-1, "a", 10, -1), "sheddable", probe, sink);

    assertThat(sink.dispatched).containsExactly("sheddable");
  }

  @Test
  void aCriticalArrivalGoesStraightPastLowerBandsThatWait() {
    FlowController<String> c = controller();
    probe.saturated = true;
    admit(c, request(0, "a", 10, -1), "standard");
    admit(c, request(-1, "a", 10, -1), "sheddable");
    probe.saturated = false;
    probe.load = 0.9;

    Queued<String> q = admit(c, request(5, "a", 10, -1), "critical");

    assertThat(q).isNull();
    assertThat(sink.dispatched).containsExactly("critical"); // the waiting go at the next pump
    assertThat(c.size()).isEqualTo(2);
  }

  @Test
  void anArrivalWaitsBehindItsOwnBandAndGoesAfterIt() {
    FlowController<String> c = controller();
    probe.saturated = true;
    admit(c, request(1, "a", 10, -1), "first");
    probe.saturated = false;

    Queued<String> second = admit(c, request(1, "b", 10, -1), "second");

    assertThat(second).isNull();
    assertThat(sink.dispatched).containsExactly("first", "second");
  }

  @Test
  void anArrivalOfALowerBandWaitsWhileAHigherOneWaits() {
    FlowController<String> c = controller();
    probe.saturated = true;
    admit(c, request(2, "a", 10, -1), "high");

    Queued<String> low = admit(c, request(1, "a", 10, -1), "low");

    assertThat(low).isNotNull();
    assertThat(sink.dispatched).isEmpty();
  }

  @Test
  void headroomOutsideZeroToOneIsRefusedByName() {
    assertThatThrownBy(() -> new FlowLimits(1, 1, 1, 1.0))
        .hasMessage("sheddableHeadroom: 1.0 (expected in [0, 1))");
  }

  private FlowController<String> sharing(double tenantShareLoad) {
    return new FlowController<>(
        new FlowLimits(100, 1 << 20, 30_000 * MS, 0.8, tenantShareLoad), FlowListener.NONE);
  }

  @Test
  void aTenantOverItsShareOfTheInFlightWorkWaitsWhileTheOthersGoBeforeSaturation() {
    FlowController<String> c = sharing(0.5);
    probe.load = 0.6; // loaded, not saturated
    for (int i = 0; i < 3; i++) {
      admit(c, request(0, "noisy", 10, -1), "noisy-" + i); // alone: all its own
    }
    admit(c, request(0, "quiet", 10, -1), "quiet-0");

    Queued<String> held = admit(c, request(0, "noisy", 10, -1), "noisy-3"); // 3 of 4 > 4 / 2
    admit(c, request(0, "quiet", 10, -1), "quiet-1");

    assertThat(held).isNotNull();
    assertThat(sink.dispatched)
        .containsExactly("noisy-0", "noisy-1", "noisy-2", "quiet-0", "quiet-1");
    assertThat(c.inFlight("noisy")).isEqualTo(3);

    c.finished("noisy");
    c.finished("noisy"); // 1 of 3 in flight: within its share
    c.pump(now, probe, sink);

    assertThat(sink.dispatched).endsWith("noisy-3");
    assertThat(c.inFlight("noisy")).isEqualTo(2);
  }

  @Test
  void belowTheShareLoadATenantTakesWhatRoomThereIs() {
    FlowController<String> c = sharing(0.5);
    probe.load = 0.4;
    admit(c, request(0, "quiet", 10, -1), "quiet");
    for (int i = 0; i < 5; i++) {
      admit(c, request(0, "noisy", 10, -1), "noisy");
    }

    assertThat(sink.dispatched).hasSize(6);
    assertThat(c.size()).isZero();
  }

  @Test
  void withoutAShareLoadNoTenantIsHeldBeforeSaturation() {
    FlowController<String> c = controller();
    probe.load = 0.7;
    admit(c, request(0, "quiet", 10, -1), "quiet");
    for (int i = 0; i < 5; i++) {
      admit(c, request(0, "noisy", 10, -1), "noisy");
    }

    assertThat(sink.dispatched).hasSize(6);
  }

  /** A pool whose pressure the test sets; it fills after {@code saturateAfter} dispatches. */
  private final class Probe implements FlowController.Probe<String> {
    boolean saturated;
    boolean hasEndpoints = true;
    double ttftSeconds = Double.NaN;
    int saturateAfter = Integer.MAX_VALUE;
    double load = Double.NaN; // NaN: 0, or 1 when full

    @Override
    public Pressure pressure(Queued<String> q) {
      boolean full = saturated || sink.dispatched.size() >= saturateAfter;
      return Double.isNaN(load)
          ? new Pressure(hasEndpoints, full, ttftSeconds)
          : new Pressure(hasEndpoints, full, ttftSeconds, load);
    }
  }

  private static final class Sink implements FlowController.Sink<String> {
    final List<String> dispatched = new ArrayList<>();
    final List<String> dropped = new ArrayList<>();

    @Override
    public void dispatch(Queued<String> q) {
      dispatched.add(q.payload());
    }

    @Override
    public void drop(Queued<String> q, DropReason reason, Pressure pressure) {
      dropped.add(
          q.payload()
              + ":"
              + reason.label()
              + ":"
              + (pressure.hasEndpoints() ? "endpoints" : "none"));
    }
  }
}
