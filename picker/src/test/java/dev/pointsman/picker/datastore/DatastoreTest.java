package dev.pointsman.picker.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.ScrapeReport;
import dev.pointsman.picker.scrape.ScrapeTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DatastoreTest {

  private static final long MS = 1_000_000L;
  private static final String A = "10.0.0.1:8000";
  private static final String B = "10.0.0.2:8000";
  private static final String C = "10.0.0.3:8000";

  private final AtomicLong clock = new AtomicLong(5_000 * MS);
  private final InFlightTracker tracker = new InFlightTracker();
  private final Datastore store = new Datastore(DatastoreConfig.DEFAULT, tracker, clock::get);

  static PoolDefinition pool(String name, Engine engine, String... addresses) {
    List<Endpoint> endpoints = new ArrayList<>();
    for (String a : addresses) {
      endpoints.add(new Endpoint(a, name));
    }
    return new PoolDefinition(name, engine, endpoints);
  }

  static EndpointMetrics metrics(int waiting) {
    return new EndpointMetrics(waiting, 1, 0.5, 1000, Set.of(), Set.of(), -1, Double.NaN, 0);
  }

  private EndpointState state(String address) {
    return store.snapshot("p").endpoints().stream()
        .filter(s -> s.address().equals(address))
        .findFirst()
        .orElseThrow();
  }

  private void advance(long millis) {
    clock.addAndGet(millis * MS);
  }

  @Test
  void anEngineThatRestartedInPlaceOrWokeFromSleepIsReportedOnceAsHavingLostItsCaches() {
    store.setPools(List.of(pool("p", Engine.VLLM, A, B)));
    List<String> lost = new ArrayList<>();
    store.addCacheLossListener((address, reason) -> lost.add(address + " " + reason));
    ScrapeReport serving = new ScrapeReport(Set.of(), null, "unknown");
    ScrapeReport restarted = new ScrapeReport(Set.of(), null, "unknown", true);
    ScrapeReport sleeping = new ScrapeReport(Set.of(), "sleeping", "unknown");

    store.onSuccess(A, metrics(0), serving);
    store.onSuccess(B, metrics(0), serving);
    store.onSuccess(A, metrics(0), restarted);
    store.onSuccess(A, metrics(0), serving);
    store.onSuccess(B, metrics(0), sleeping);
    store.onSuccess(B, metrics(0), sleeping);
    store.onFailure(B, "timeout");
    store.onSuccess(B, metrics(0), serving);
    store.onSuccess(B, metrics(0), serving);

    assertThat(lost).containsExactly(A + " restart", B + " wake");
  }

  @Test
  void endpointIsUnavailableUntilItsFirstSuccessfulScrape() {
    store.setPools(List.of(pool("p", Engine.VLLM, A)));

    assertThat(state(A).available()).isFalse();
    assertThat(state(A).metrics()).isEqualTo(EndpointMetrics.UNKNOWN);

    store.onSuccess(A, metrics(3));

    assertThat(state(A).available()).isTrue();
    assertThat(state(A).metrics().waitingRequests()).isEqualTo(3);
    assertThat(store.available("p")).isEqualTo(1);
  }

  @Test
  void failuresUpToTheThresholdMakeItUnavailableAndASuccessRecovers() {
    store.setPools(List.of(pool("p", Engine.VLLM, A)));
    store.onSuccess(A, metrics(1));

    store.onFailure(A, "timeout");
    store.onFailure(A, "timeout");
    assertThat(state(A).available()).isTrue();

    store.onFailure(A, "connect");
    assertThat(state(A).available()).isFalse();
    assertThat(state(A).metrics().waitingRequests()).isEqualTo(1); // last good metrics kept

    store.onSuccess(A, metrics(2));
    assertThat(state(A).available()).isTrue();
  }

  @Test
  void staleAfter250msAndUnavailableAfter1sWithoutSuccess() {
    store.setPools(List.of(pool("p", Engine.VLLM, A, B)));
    store.onSuccess(A, metrics(1));
    store.onSuccess(B, metrics(1));

    advance(250);
    assertThat(store.stale("p")).isZero();
    advance(1);
    assertThat(store.stale("p")).isEqualTo(2);
    store.onSuccess(B, metrics(1));
    assertThat(store.stale("p")).isEqualTo(1);
    assertThat(store.available("p")).isEqualTo(2);

    advance(750);
    assertThat(state(A).available()).isFalse();
    assertThat(state(B).available()).isTrue();
    assertThat(store.stale("p")).isEqualTo(1);
    assertThat(store.available("p")).isEqualTo(1);
  }

  @Test
  void snapshotIsCachedUntilSomethingChanges() {
    store.setPools(List.of(pool("p", Engine.VLLM, A, B)));
    store.onSuccess(A, metrics(1));

    PoolSnapshot first = store.snapshot("p");
    advance(10);
    assertThat(store.snapshot("p")).isSameAs(first);

    store.onFailure(B, "connect"); // B was never available: nothing visible changes
    assertThat(store.snapshot("p")).isSameAs(first);

    store.onSuccess(B, metrics(4));
    PoolSnapshot second = store.snapshot("p");
    assertThat(second).isNotSameAs(first);
    assertThat(second.endpoints()).extracting(EndpointState::available).containsExactly(true, true);
  }

  @Test
  void scrapeResetsPendingAccountingOfTheEndpoint() {
    store.setPools(List.of(pool("p", Engine.VLLM, A, B)));
    InFlightTracker.Ticket a = tracker.assign(A, 100);
    tracker.assign(B, 50);

    store.onSuccess(A, metrics(1));

    assertThat(tracker.load(A).pendingRequests()).isZero();
    assertThat(tracker.load(A).liveRequests()).isEqualTo(1);
    assertThat(tracker.load(B).pendingRequests()).isEqualTo(1);
    a.release();
    assertThat(tracker.load(A)).isEqualTo(InFlightTracker.Load.NONE);
  }

  @Test
  void scrapesOfUnknownAddressesAreIgnored() {
    store.setPools(List.of(pool("p", Engine.VLLM, A)));
    tracker.assign(C, 10);

    store.onSuccess(C, metrics(1));
    store.onFailure(C, "timeout");

    assertThat(tracker.load(C).pendingRequests()).isEqualTo(1);
    assertThat(store.snapshot("p").endpoints()).hasSize(1);
  }

  @Test
  void membershipChangesPruneStateAndNotifyListeners() {
    List<Membership> seen = new ArrayList<>();
    store.addMembershipListener(seen::add);
    store.setPools(List.of(pool("p", Engine.VLLM, A, B)));
    store.onSuccess(A, metrics(1));
    store.onSuccess(B, metrics(1));
    tracker.assign(A, 10);
    tracker.assign(B, 10);

    store.putPool(pool("p", Engine.VLLM, B, C));

    assertThat(seen).hasSize(3); // on registration, setPools, putPool
    assertThat(seen.getLast().targets())
        .containsExactlyInAnyOrder(
            new ScrapeTarget(B, Engine.VLLM), new ScrapeTarget(C, Engine.VLLM));
    assertThat(tracker.liveRequests()).isEqualTo(1); // A forgotten
    assertThat(state(B).available()).isTrue(); // B kept its health
    assertThat(state(C).available()).isFalse();

    store.putPool(pool("p", Engine.VLLM, A, B));
    assertThat(state(A).available()).isFalse(); // A re-added starts fresh
    assertThat(store.removePool("p")).isTrue();
    assertThat(store.snapshot("p").endpoints()).isEmpty();
    assertThat(seen.getLast().addresses()).isEmpty();
    assertThat(store.removePool("p")).isFalse();
  }

  @Test
  void readyOnceEveryEndpointOfEveryPoolHadAScrapeResult() {
    assertThat(store.ready()).isFalse();
    store.setPools(List.of(pool("p", Engine.VLLM, A), pool("q", Engine.SGLANG, B)));
    assertThat(store.ready()).isFalse();

    store.onSuccess(A, metrics(1));
    assertThat(store.ready()).isFalse();
    store.onFailure(B, "connect");
    assertThat(store.ready()).isTrue();

    store.putPool(pool("q", Engine.SGLANG, B, C));
    assertThat(store.ready()).isFalse();
  }

  @Test
  void queriesAndCounts() {
    store.setPools(List.of(pool("b", Engine.VLLM, A, B), pool("a", Engine.TRTLLM, C)));

    assertThat(store.pools()).containsExactly("a", "b");
    assertThat(store.pool("a")).map(PoolDefinition::engine).contains(Engine.TRTLLM);
    assertThat(store.pool("zz")).isEmpty();
    assertThat(store.endpoints("b")).isEqualTo(2);
    assertThat(store.endpoints("zz")).isZero();
    assertThat(store.available("zz")).isZero();
    assertThat(store.snapshot("zz")).isEqualTo(PoolSnapshot.empty("zz"));
    assertThat(store.snapshot("b").endpoints())
        .extracting(EndpointState::address)
        .containsExactly(A, B);
  }

  @Test
  void invalidDefinitionsAreRejectedWithClearMessages() {
    assertThatThrownBy(() -> new PoolDefinition("p", Engine.VLLM, List.of(new Endpoint(A, "q"))))
        .hasMessage("pool 'p': endpoint " + A + " names pool 'q' (expected 'p')");
    assertThatThrownBy(() -> pool("p", Engine.VLLM, A, A))
        .hasMessage("pool 'p': endpoint " + A + " listed twice (expected once)");
    assertThatThrownBy(
            () -> store.setPools(List.of(pool("p", Engine.VLLM, A), pool("q", Engine.SGLANG, A))))
        .hasMessageContaining("expected one engine per address");
    assertThatThrownBy(() -> new DatastoreConfig(0, Duration.ofMillis(250), Duration.ofSeconds(1)))
        .hasMessage("datastore.failureThreshold: 0 (expected >= 1)");
    assertThatThrownBy(() -> new DatastoreConfig(3, Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessage("datastore.unavailableAfter: PT1S (expected >= staleAfter PT2S)");
  }

  @Test
  void sameAddressInTwoPoolsSharesHealth() {
    store.setPools(List.of(pool("p", Engine.VLLM, A), pool("q", Engine.VLLM, A)));

    store.onSuccess(A, metrics(7));

    assertThat(store.snapshot("q").endpoints().getFirst().available()).isTrue();
    assertThat(state(A).metrics().waitingRequests()).isEqualTo(7);
  }
}
