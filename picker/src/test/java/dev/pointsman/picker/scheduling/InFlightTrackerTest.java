package dev.pointsman.picker.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InFlightTrackerTest {
  private static final String A = "10.0.0.1:8000";
  private static final String B = "10.0.0.2:8000";

  private final InFlightTracker tracker = new InFlightTracker();

  @Test
  void unknownEndpointHasNoLoad() {
    assertThat(tracker.load(A)).isSameAs(InFlightTracker.Load.NONE);
  }

  @Test
  void assignCountsPendingAndLive() {
    tracker.assign(A, 100);
    tracker.assign(A, 50);
    tracker.assign(B, 7);

    assertThat(tracker.load(A)).isEqualTo(new InFlightTracker.Load(2, 150, 2, 150, 2, 150));
    assertThat(tracker.load(B)).isEqualTo(new InFlightTracker.Load(1, 7, 1, 7, 1, 7));
    assertThat(tracker.liveRequests()).isEqualTo(3);
  }

  @Test
  void aPrefixIsSharedByAnotherLiveRequestThatGoesOnDifferentlyNotByAnEarlierTurn() {
    long[] turn3 = {1, 2, 3, 4, 5, 6};
    long[] turn2 = {1, 2, 3, 4};
    long[] sibling = {1, 2, 3, 9, 9};
    long[] shorter = {1, 2};

    InFlightTracker.Ticket earlier = tracker.assign(A, 64, 0, null, false, turn2);
    assertThat(tracker.sharedInFlight(A, turn3, 4)).as("its own earlier turn").isFalse();
    assertThat(tracker.sharedInFlight(A, turn3, 2)).isFalse();

    InFlightTracker.Ticket other = tracker.assign(A, 80, 0, null, false, sibling);
    assertThat(tracker.sharedInFlight(A, turn3, 3)).as("blocks 1-3, then its own way").isTrue();
    assertThat(tracker.sharedInFlight(A, turn3, 4)).as("it differs at block 4").isFalse();
    assertThat(tracker.sharedInFlight(B, turn3, 3)).as("another endpoint").isFalse();
    assertThat(tracker.sharedInFlight(A, turn3, 0)).isFalse();
    assertThat(tracker.sharedInFlight(A, turn3, 7)).as("deeper than the prompt").isFalse();

    // a live request that is a prefix of this one shares nothing with it but its own history; one
    // this prompt is a prefix of (the next turn, in flight while this one is asked again) shares
    tracker.assign(B, 32, 0, null, false, shorter);
    assertThat(tracker.sharedInFlight(B, turn2, 2)).isFalse();
    tracker.assign(B, 96, 0, null, false, turn3);
    assertThat(tracker.sharedInFlight(B, turn2, 2)).isTrue();

    other.release();
    assertThat(tracker.sharedInFlight(A, turn3, 3)).as("released").isFalse();
    InFlightTracker.Ticket moved = tracker.transfer(earlier, B);
    assertThat(moved.address()).isEqualTo(B);
    assertThat(tracker.sharedInFlight(B, new long[] {1, 2, 3, 7}, 3))
        .as("a transferred ticket keeps its blocks")
        .isTrue();
    tracker.assign(A, 10, 10, null, false); // no blocks: never a sharer
    assertThat(tracker.sharedInFlight(A, turn3, 1)).isFalse();
  }

  @Test
  void ownLoadsCarryTheLiveAdaptersAndTheLoadsTheyTriggered() {
    InFlightTracker.Ticket sql = tracker.assign(A, 10, 10, "sql", true);
    tracker.assign(A, 10, 10, "sql", false);
    tracker.assign(A, 10, 10, null, false);

    assertThat(tracker.ownLoads().get(A).adapters())
        .isEqualTo(Map.of("sql", new InFlightTracker.AdapterLoad(2, 1)));
    sql.firstToken();
    assertThat(tracker.ownLoads().get(A).adapters())
        .isEqualTo(Map.of("sql", new InFlightTracker.AdapterLoad(2, 0)));
  }

  @Test
  void aPeersLiveAdaptersAndLoadsCountAsThisReplicasOwn() {
    InFlightTracker peer = new InFlightTracker();
    peer.assign(A, 10, 10, "sql", true);
    peer.assign(A, 10, 10, "chat", false);
    tracker.assign(A, 10, 10, "code", true);

    tracker.peerLoads(peer.ownLoads());

    assertThat(tracker.liveAdapters(A)).containsExactlyInAnyOrder("sql", "chat", "code");
    assertThat(tracker.loading(A, "sql")).isTrue();
    assertThat(tracker.loading(A, "chat")).isFalse();
    assertThat(tracker.loadsInProgress(A)).isEqualTo(2);
    assertThat(tracker.load(A).liveRequests()).isEqualTo(3);
    // what it reports stays its own
    assertThat(tracker.ownLoads().get(A).adapters()).containsOnlyKeys("code");

    // the peer's requests end: its next report drops them
    tracker.peerLoads(Map.of());
    assertThat(tracker.liveAdapters(A)).containsExactly("code");
    assertThat(tracker.loadsInProgress(A)).isEqualTo(1);
  }

  @Test
  void twoPeersLoadsOfOneAdapterAddUp() {
    InFlightTracker.Load a =
        new InFlightTracker.Load(
            0, 0, 1, 10, 1, 10, Map.of("sql", new InFlightTracker.AdapterLoad(1, 1)));
    InFlightTracker.Load b =
        new InFlightTracker.Load(
            0,
            0,
            2,
            20,
            0,
            0,
            Map.of(
                "sql", new InFlightTracker.AdapterLoad(1, 0),
                "chat", new InFlightTracker.AdapterLoad(1, 0)));

    assertThat(a.plus(b).adapters())
        .isEqualTo(
            Map.of(
                "sql", new InFlightTracker.AdapterLoad(2, 1),
                "chat", new InFlightTracker.AdapterLoad(1, 0)));
    assertThat(a.plus(InFlightTracker.Load.NONE)).isEqualTo(a);
  }

  @Test
  void scrapeResetsPendingButNotLive() {
    tracker.assign(A, 100);
    tracker.assign(A, 50);

    tracker.onScrape(A);

    assertThat(tracker.load(A)).isEqualTo(new InFlightTracker.Load(0, 0, 2, 150, 2, 150));
  }

  @Test
  void ticketFromAnEarlierEpochDoesNotDecrementTheNewEpochsPending() {
    InFlightTracker.Ticket old = tracker.assign(A, 100);
    tracker.onScrape(A);
    tracker.assign(A, 30);

    assertThat(old.release()).isTrue();

    assertThat(tracker.load(A)).isEqualTo(new InFlightTracker.Load(1, 30, 1, 30, 1, 30));
  }

  @Test
  void releaseIsIdempotent() {
    InFlightTracker.Ticket t = tracker.assign(A, 100);
    tracker.assign(A, 20);

    assertThat(t.release()).isTrue();
    assertThat(t.release()).isFalse();
    assertThat(t.release()).isFalse();

    assertThat(tracker.load(A)).isEqualTo(new InFlightTracker.Load(1, 20, 1, 20, 1, 20));
    assertThat(t.released()).isTrue();
    assertThat(t.address()).isEqualTo(A);
  }

  @Test
  void retainPrunesEndpointsThatLeft() {
    tracker.assign(A, 1);
    InFlightTracker.Ticket b = tracker.assign(B, 2);

    tracker.retain(List.of(A));

    assertThat(tracker.load(B)).isSameAs(InFlightTracker.Load.NONE);
    assertThat(tracker.liveRequests()).isEqualTo(1);
    assertThat(b.release()).isTrue(); // a late release of a pruned endpoint is harmless
    assertThat(tracker.load(B)).isSameAs(InFlightTracker.Load.NONE);
    assertThat(tracker.load(A).liveRequests()).isEqualTo(1);
  }

  @Test
  void concurrentAssignReleaseAndScrapesEndAtZero() throws Exception {
    String[] addresses = {A, B, "10.0.0.3:8000", "10.0.0.4:8000"};
    int threads = 8;
    int ops = 10_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t;
        futures.add(
            pool.submit(
                () -> {
                  SplittableRandom r = new SplittableRandom(seed);
                  ArrayDeque<InFlightTracker.Ticket> held = new ArrayDeque<>();
                  start.await();
                  for (int i = 0; i < ops; i++) {
                    String a = addresses[r.nextInt(addresses.length)];
                    held.add(tracker.assign(a, 1 + r.nextInt(4000)));
                    if (held.size() > 16 || r.nextBoolean()) {
                      InFlightTracker.Ticket t0 = held.poll();
                      t0.release();
                      if (r.nextInt(4) == 0) {
                        t0.release(); // duplicate release from a racing stream end
                      }
                    }
                    if (r.nextInt(100) == 0) {
                      tracker.onScrape(addresses[r.nextInt(addresses.length)]);
                    }
                    for (String x : addresses) {
                      InFlightTracker.Load l = tracker.load(x);
                      if (l.pendingRequests() < 0 || l.pendingTokens() < 0) {
                        throw new AssertionError("negative pending on " + x + ": " + l);
                      }
                    }
                  }
                  held.forEach(InFlightTracker.Ticket::release);
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(tracker.liveRequests()).isZero();
    for (String a : addresses) {
      assertThat(tracker.load(a)).isEqualTo(new InFlightTracker.Load(0, 0, 0, 0, 0, 0));
    }
  }

  @Test
  void transferMovesTheHoldAndKeepsThePrefillState() {
    InFlightTracker tracker = new InFlightTracker();
    InFlightTracker.Ticket primary = tracker.assign("10.0.0.1:8000", 100, 60, "sql-lora", true);

    InFlightTracker.Ticket moved = tracker.transfer(primary, "10.0.0.2:8000");

    assertThat(primary.released()).isTrue();
    assertThat(tracker.load("10.0.0.1:8000")).isEqualTo(new InFlightTracker.Load(0, 0, 0, 0, 0, 0));
    assertThat(tracker.loadsInProgress("10.0.0.1:8000")).isZero();
    assertThat(tracker.load("10.0.0.2:8000"))
        .isEqualTo(new InFlightTracker.Load(1, 100, 1, 100, 1, 60));
    assertThat(tracker.liveAdapters("10.0.0.2:8000")).containsExactly("sql-lora");
    assertThat(tracker.loadsInProgress("10.0.0.2:8000"))
        .as("the move is not an adapter load the picker triggered")
        .isZero();

    moved.firstToken();
    InFlightTracker.Ticket again = tracker.transfer(moved, "10.0.0.3:8000");
    assertThat(tracker.load("10.0.0.3:8000").prefillRequests())
        .as("a hold past its first token stays past it")
        .isZero();
    again.release();
    assertThat(tracker.liveRequests()).isZero();
  }
}
