package dev.pointsman.picker.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.AdapterHistory;
import dev.pointsman.picker.scheduling.AdapterListing;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Fixtures;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.LoraState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoraAffinityScorerTest {

  private static Set<String> set(String s) {
    return s == null || s.isBlank() ? Set.of() : Set.of(s.trim().split("\\s+"));
  }

  @ParameterizedTest(name = "running [{0}] waiting [{1}] max {2}, adapter {3} -> {4}")
  @CsvSource({
    "a,        ,     4,  a,  1.0", // active
    "a b c d,  ,     4,  a,  1.0", // active even when every slot is used
    "b,        ,     4,  a,  0.8", // free slot
    "b c,      d,    4,  a,  0.8", // 3 of 4 used
    "b c,      a d,  4,  a,  0.9", // waiting with a slot to spare: its load is under way
    "b c d,    a,    4,  a,  0.9",
    "b c d e,  a,    4,  a,  0.6", // waiting, and every other slot holds live requests
    "b c d e,  ,     4,  a,  0.0", // full, would evict
    "b c,      c,    3,  a,  0.8", // c running and waiting holds one slot: 2 of 3 used
    "b c,      c d,  3,  a,  0.0", // b c d: full
    "b c d e f, ,   -1,  a,  0.8", // slots unknown: assume one is free
    ",         a,   -1,  a,  0.9",
    ",         ,     0,  a,  0.0", // no LoRA slots at all
    "b c d e,  ,     4,  ,   1.0", // base-model request: affinity does not apply
    ",         ,     0,  ,   1.0",
  })
  void affinityTiers(
      String running, String waiting, int maxLoras, String adapter, double expected) {
    var c =
        Fixtures.candidate("10.0.0.1:8000", Fixtures.lora(set(running), set(waiting), maxLoras));
    double[] out = new double[1];

    new LoraAffinityScorer()
        .score(Fixtures.request(adapter, "", 100), List.of(c), new CycleState(0, new long[0]), out);

    assertThat(out[0]).isEqualTo(expected);
  }

  @Test
  void aPeerReplicasLiveAdaptersPinSlotsAndItsLoadsAreUnderWay() {
    InFlightTracker own = new InFlightTracker();
    InFlightTracker peer = new InFlightTracker();
    AdapterHistory history = new AdapterHistory();
    java.util.function.Supplier<CycleState> decision =
        () -> new CycleState(0, new long[0], null, history, null, own, null, null);
    var c = Fixtures.candidate("10.0.0.1:8000", Fixtures.lora(Set.of(), Set.of(), 2));
    // the peer sent "a" and "b" there and they have not finished; the scrape shows neither yet
    peer.assign("10.0.0.1:8000", 10, 10, "a", true);
    peer.assign("10.0.0.1:8000", 10, 10, "b", false);
    assertThat(LoraAffinityScorer.state(c, "z", decision.get())).isEqualTo(LoraState.COLD_LOAD);

    own.peerLoads(peer.ownLoads()); // as its report arrives

    assertThat(LoraAffinityScorer.state(c, "z", decision.get())).isEqualTo(LoraState.BLOCKED);
    assertThat(LoraAffinityScorer.state(c, "a", decision.get())).isEqualTo(LoraState.LOADING);
  }

  @Test
  void adaptersThePickerSentAreResidentAndLoadingEvictingOrPinnedByWhatIsLive() {
    InFlightTracker inFlight = new InFlightTracker();
    AdapterHistory history = new AdapterHistory();
    // one cycle state per decision: it caches the state of the decision's one adapter
    java.util.function.Supplier<CycleState> decision =
        () -> new CycleState(0, new long[0], null, history, null, inFlight, null, null);
    var c = Fixtures.candidate("10.0.0.1:8000", Fixtures.lora(Set.of(), Set.of(), 2));
    // "a" and "b" were sent recently: they are resident and hold both slots, idle
    history.record("10.0.0.1:8000", "a");
    history.record("10.0.0.1:8000", "b");
    assertThat(LoraAffinityScorer.state(c, "a", decision.get())).isEqualTo(LoraState.RESIDENT);
    assertThat(LoraAffinityScorer.state(c, "z", decision.get())).isEqualTo(LoraState.COLD_EVICT);

    // "x" was sent long ago (beyond the slots, within the history): a warm load
    history.record("10.0.0.1:8000", "x");
    history.record("10.0.0.1:8000", "a");
    history.record("10.0.0.1:8000", "b");
    assertThat(LoraAffinityScorer.state(c, "x", decision.get())).isEqualTo(LoraState.WARM_EVICT);

    // both resident adapters have live requests: a third must wait for a slot
    inFlight.assign("10.0.0.1:8000", 10, 10, "a", false);
    inFlight.assign("10.0.0.1:8000", 10, 10, "b", false);
    assertThat(LoraAffinityScorer.state(c, "z", decision.get())).isEqualTo(LoraState.BLOCKED);

    // a load the picker triggered and has not seen finish
    inFlight.assign("10.0.0.1:8000", 10, 10, "q", true);
    assertThat(LoraAffinityScorer.state(c, "q", decision.get())).isEqualTo(LoraState.LOADING);
    assertThat(LoraAffinityScorer.affinity(c, "q", decision.get())).isEqualTo(0.9);
  }

  @Test
  void theModelListingDecidesWhetherAnAdapterCanBeServedAtAll() {
    AdapterHistory history = new AdapterHistory();
    java.util.function.Supplier<CycleState> decision =
        () ->
            new CycleState(0, new long[0], null, history, null, new InFlightTracker(), null, null);
    var listsOthers =
        Fixtures.candidate(
            "10.0.0.1:8000",
            Fixtures.lora(Set.of(), Set.of(), 4).withListing(AdapterListing.of(Set.of("b"))));
    assertThat(LoraAffinityScorer.state(listsOthers, "a", decision.get()))
        .isEqualTo(LoraState.UNLISTED);
    assertThat(LoraAffinityScorer.affinity(listsOthers, "a", decision.get())).isZero();
    assertThat(LoraAffinityScorer.state(listsOthers, "b", decision.get()))
        .isEqualTo(LoraState.COLD_LOAD);

    // sent there before, but since removed from the listing (unloaded): not resident
    history.record("10.0.0.1:8000", "a");
    assertThat(LoraAffinityScorer.state(listsOthers, "a", decision.get()))
        .isEqualTo(LoraState.UNLISTED);

    // the metrics are read more often than the listing: requests for it prove it is there
    var running =
        Fixtures.candidate(
            "10.0.0.2:8000",
            Fixtures.lora(Set.of("a"), Set.of(), 4).withListing(AdapterListing.of(Set.of())));
    assertThat(LoraAffinityScorer.state(running, "a", decision.get()))
        .isEqualTo(LoraState.RESIDENT);
    var waiting =
        Fixtures.candidate(
            "10.0.0.3:8000",
            Fixtures.lora(Set.of(), Set.of("a"), 4).withListing(AdapterListing.of(Set.of())));
    assertThat(LoraAffinityScorer.state(waiting, "a", decision.get())).isEqualTo(LoraState.LOADING);

    // not listed yet (or the engine has no listing): no restriction
    var unknown = Fixtures.candidate("10.0.0.4:8000", Fixtures.lora(Set.of(), Set.of(), 4));
    assertThat(LoraAffinityScorer.state(unknown, "a", decision.get()))
        .isEqualTo(LoraState.COLD_LOAD);
  }

  @Test
  void capacityFilterDropsUnlistedEndpointsFirstThenFullOnes() {
    // a cycle state caches one adapter's states: one per decision
    java.util.function.Supplier<CycleState> decision = () -> new CycleState(0, new long[0]);
    var unlisted =
        Fixtures.candidate(
            "10.0.0.1:8000",
            Fixtures.lora(Set.of(), Set.of(), 4).withListing(AdapterListing.of(Set.of("b"))));
    var full =
        Fixtures.candidate(
            "10.0.0.2:8000",
            Fixtures.lora(Set.of("b", "c"), Set.of(), 2)
                .withListing(AdapterListing.of(Set.of("a", "b", "c"))));
    var free =
        Fixtures.candidate(
            "10.0.0.3:8000",
            Fixtures.lora(Set.of("b"), Set.of(), 2)
                .withListing(AdapterListing.of(Set.of("a", "b"))));
    var filter = new LoraCapacityFilter();
    var request = Fixtures.request("a", "", 100);

    assertThat(filter.filter(request, List.of(unlisted, full, free), decision.get()))
        .containsExactly(free);
    // listed but full beats unlisted: the one would wait, the other would refuse
    assertThat(filter.filter(request, List.of(unlisted, full), decision.get()))
        .containsExactly(full);
    // nobody lists it: keep all (an engine may resolve adapters on demand)
    assertThat(
            filter.filter(Fixtures.request("z", "", 100), List.of(unlisted, free), decision.get()))
        .hasSize(2);
    // base-model requests are untouched
    assertThat(filter.filter(Fixtures.request(null, "", 100), List.of(unlisted), decision.get()))
        .containsExactly(unlisted);
  }
}
