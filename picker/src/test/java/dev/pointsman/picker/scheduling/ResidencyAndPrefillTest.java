package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.latency.AdapterLoadModel;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What the picker learns from its own routing: which LoRA adapters are probably resident where
 * (vLLM's metric hides loaded but idle ones), and how much prefill it has sent that has not yet
 * produced a first token.
 */
class ResidencyAndPrefillTest {
  private final InFlightTracker inFlight = new InFlightTracker();
  private final Scheduler scheduler =
      new Scheduler(new PrefixIndex(1000), inFlight, PrefixHasher.DEFAULT, () -> 0L);
  private final SchedulingPolicy policy = Plugins.build(PolicyConfig.defaults());

  private static EndpointState idle(String address, int maxLoras) {
    return new EndpointState(
        new Endpoint(address, "p", java.util.Map.of("gpu", "A100-80")),
        new EndpointMetrics(0, 0, 0.1, 1_000_000, Set.of(), Set.of(), maxLoras, Double.NaN, 0),
        true);
  }

  private static SchedulingRequest lora(String adapter, int n) {
    return new SchedulingRequest("r" + n, adapter, adapter, "", 200, -1, false, null);
  }

  private static EndpointState listing(String address, String... adapters) {
    EndpointState idle = idle(address, 4);
    return new EndpointState(
        idle.endpoint(), idle.metrics().withListing(AdapterListing.of(Set.of(adapters))), true);
  }

  @Test
  void anAdapterGoesOnlyWhereTheModelListingHasItEvenWhenThatEndpointIsBusier() {
    // endpoint 1 has "sql" registered but is busy; 2 and 3 are idle and list other adapters
    PoolSnapshot pool =
        new PoolSnapshot(
            "p",
            List.of(
                listing("10.0.0.1:8000", "sql", "chat"),
                listing("10.0.0.2:8000", "chat"),
                listing("10.0.0.3:8000")));
    inFlight.assign("10.0.0.1:8000", 8_000, 8_000);
    for (int i = 0; i < 10; i++) {
      Decision.Picked d =
          (Decision.Picked)
              scheduler.schedule(lora("sql", i), pool, policy, new SplittableRandom(i));
      assertThat(d.address()).isEqualTo("10.0.0.1:8000");
      d.ticket().release();
    }
    // a base-model request is not held to the listing
    Decision.Picked base =
        (Decision.Picked)
            scheduler.schedule(
                new SchedulingRequest("b", "m", null, "", 200, -1, false, null),
                pool,
                policy,
                new SplittableRandom(3));
    assertThat(base.address()).isNotEqualTo("10.0.0.1:8000");
  }

  @Test
  void anAdapterNoEndpointListsIsStillRoutedAndAnUnknownListingAllowsEverything() {
    // no listing has "new": the engines may resolve it on demand, so every endpoint stays
    PoolSnapshot unlisted =
        new PoolSnapshot(
            "p", List.of(listing("10.0.0.1:8000", "chat"), listing("10.0.0.2:8000", "chat")));
    Set<String> picked = new java.util.HashSet<>();
    for (int i = 0; i < 20; i++) {
      Decision d =
          scheduler.schedule(lora("new-" + i, i), unlisted, policy, new SplittableRandom(i));
      assertThat(d).isInstanceOf(Decision.Picked.class);
      picked.add(((Decision.Picked) d).address());
      ((Decision.Picked) d).ticket().release();
    }
    assertThat(picked).containsExactlyInAnyOrder("10.0.0.1:8000", "10.0.0.2:8000");

    // an endpoint that has not been listed yet is not excluded by the others' listings
    PoolSnapshot mixed =
        new PoolSnapshot("p", List.of(listing("10.0.0.3:8000", "chat"), idle("10.0.0.4:8000", 4)));
    Decision.Picked d =
        (Decision.Picked)
            scheduler.schedule(lora("sql", 99), mixed, policy, new SplittableRandom(99));
    assertThat(d.address()).isEqualTo("10.0.0.4:8000");
    assertThat(d.prediction().lora()).isEqualTo(LoraState.COLD_LOAD);
  }

  @Test
  void anAdapterSentToAnEndpointIsTreatedAsResidentThereAfterwards() {
    PoolSnapshot pool =
        new PoolSnapshot("p", List.of(idle("10.0.0.1:8000", 2), idle("10.0.0.2:8000", 2)));
    Decision.Picked first =
        (Decision.Picked) scheduler.schedule(lora("sql", 0), pool, policy, new SplittableRandom(1));
    first.ticket().release();
    // the metric now shows no adapters at all (the adapter is loaded but idle)
    for (int i = 1; i <= 20; i++) {
      Decision.Picked next =
          (Decision.Picked)
              scheduler.schedule(lora("sql", i), pool, policy, new SplittableRandom(i));
      next.ticket().release();
      assertThat(next.address()).as("request %d", i).isEqualTo(first.address());
    }
  }

  @Test
  void anEndpointWhoseSlotsHoldOtherRecentAdaptersHasNoFreeSlot() {
    PoolSnapshot pool =
        new PoolSnapshot("p", List.of(idle("10.0.0.1:8000", 2), idle("10.0.0.2:8000", 2)));
    scheduler.adapterHistory().record("10.0.0.1:8000", "a");
    scheduler.adapterHistory().record("10.0.0.1:8000", "b");
    for (int i = 0; i < 10; i++) {
      Decision.Picked d =
          (Decision.Picked) scheduler.schedule(lora("c", i), pool, policy, new SplittableRandom(i));
      d.ticket().release();
      assertThat(d.address()).isEqualTo("10.0.0.2:8000");
    }
  }

  @Test
  void anEndpointWhoseSlotsAllHoldLiveRequestsIsAvoidedForAnotherAdapter() {
    PoolSnapshot pool =
        new PoolSnapshot("p", List.of(idle("10.0.0.1:8000", 2), idle("10.0.0.2:8000", 2)));
    // two adapters with requests still live on endpoint 1 (the scrape has not shown them yet)
    inFlight.assign("10.0.0.1:8000", 100, 0, "a", false);
    inFlight.assign("10.0.0.1:8000", 100, 0, "b", false);
    // endpoint 2 is busier, but has free slots
    inFlight.assign("10.0.0.2:8000", 2_000, 2_000);
    for (int i = 0; i < 5; i++) {
      Decision.Picked d =
          (Decision.Picked) scheduler.schedule(lora("c", i), pool, policy, new SplittableRandom(i));
      assertThat(d.address()).isEqualTo("10.0.0.2:8000");
      // the first pick loads it; the later ones find it resident (sent there, load finished)
      assertThat(d.prediction().lora())
          .isEqualTo(i == 0 ? LoraState.COLD_LOAD : LoraState.RESIDENT);
      d.ticket().release();
    }
  }

  @Test
  void aLoadInProgressIsPricedAndLearnedFromTheFirstToken() {
    PoolSnapshot pool = new PoolSnapshot("p", List.of(idle("10.0.0.1:8000", 4)));
    Decision.Picked cold =
        (Decision.Picked) scheduler.schedule(lora("x", 0), pool, policy, new SplittableRandom(1));
    assertThat(cold.prediction().lora()).isEqualTo(LoraState.COLD_LOAD);
    assertThat(cold.prediction().adapterSeconds()).isEqualTo(0.5); // the configured prior
    assertThat(inFlight.loadsInProgress("10.0.0.1:8000")).isEqualTo(1);

    // a second request for the same adapter waits for the same load, and triggers none
    Decision.Picked same =
        (Decision.Picked) scheduler.schedule(lora("x", 1), pool, policy, new SplittableRandom(2));
    assertThat(same.prediction().lora()).isEqualTo(LoraState.LOADING);
    assertThat(inFlight.loadsInProgress("10.0.0.1:8000")).isEqualTo(1);
    // another adapter queues behind the load in progress
    Decision.Picked other =
        (Decision.Picked) scheduler.schedule(lora("y", 2), pool, policy, new SplittableRandom(3));
    assertThat(other.prediction().loadsAhead()).isEqualTo(1);
    assertThat(other.prediction().adapterSeconds()).isEqualTo(1.0);

    // the load took 1.5 s beyond the base prediction: that is what a cold load now costs
    scheduler.observeTtft(cold, cold.prediction().baseSeconds() + 1.5);
    assertThat(inFlight.loading("10.0.0.1:8000", "x")).isFalse();
    assertThat(scheduler.adapterLoads().learned("10.0.0.1:8000", AdapterLoadModel.Kind.COLD))
        .isEqualTo(1.5);
    // the latency model was not trained by a request that waited for a load, but its error counts
    assertThat(scheduler.latencyModel().observations("10.0.0.1:8000")).isZero();
    assertThat(scheduler.latencyModel().mape("10.0.0.1:8000")).isGreaterThan(0.5);
    List.of(cold, same, other).forEach(d -> d.ticket().release());
    assertThat(inFlight.liveAdapters("10.0.0.1:8000")).isEmpty();
    assertThat(inFlight.loadsInProgress("10.0.0.1:8000")).isZero();
  }

  @Test
  void prefillIsOutstandingUntilTheFirstTokenAndSteersTheNextPick() {
    PoolSnapshot pool =
        new PoolSnapshot("p", List.of(idle("10.0.0.1:8000", 4), idle("10.0.0.2:8000", 4)));
    SchedulingRequest big = new SchedulingRequest("big", "m", null, "", 30_000, -1, false, null);
    Decision.Picked first =
        (Decision.Picked) scheduler.schedule(big, pool, policy, new SplittableRandom(3));
    assertThat(inFlight.load(first.address()).prefillTokens()).isEqualTo(30_000);
    // a scrape lands before the engine reports the request as waiting: pending resets, prefill does
    // not
    pool.endpoints().forEach(e -> inFlight.onScrape(e.address()));
    Decision.Picked second =
        (Decision.Picked)
            scheduler.schedule(
                SchedulingRequest.of("small", "m", 500), pool, policy, new SplittableRandom(4));
    assertThat(second.address()).isNotEqualTo(first.address());

    scheduler.observeTtft(first, 1.2);
    assertThat(inFlight.load(first.address()).prefillTokens()).isZero();
    assertThat(inFlight.load(first.address()).liveRequests()).isEqualTo(1);
    first.ticket().release();
    first.ticket().release();
    assertThat(inFlight.load(first.address())).isEqualTo(InFlightTracker.Load.NONE);
    second.ticket().release();
  }

  @Test
  void releaseWithoutAFirstTokenAlsoEndsThePrefill() {
    InFlightTracker.Ticket t = inFlight.assign("10.0.0.9:8000", 100, 60);
    assertThat(inFlight.load("10.0.0.9:8000").prefillTokens()).isEqualTo(60);
    t.release();
    assertThat(inFlight.load("10.0.0.9:8000").prefillTokens()).isZero();
  }

  @Test
  void adapterHistoryIsBoundedPerEndpointAndKeepsTheMostRecent() {
    AdapterHistory h = new AdapterHistory(3);
    for (String a : List.of("a", "b", "c", "d", "b")) {
      h.record("x", a);
    }
    assertThat(h.mostRecent("x", 2)).containsExactlyInAnyOrder("d", "b");
    assertThat(h.mostRecent("x", 10)).containsExactlyInAnyOrder("c", "d", "b");
    h.retain(List.of("y"));
    assertThat(h.mostRecent("x", 3)).isEmpty();
  }
}
