package dev.pointsman.picker.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scrape.Engine;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DatastoreConcurrencyTest {

  private static final List<String> ALL =
      List.of("10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80", "10.0.0.4:80");

  @Test
  void readersSeeConsistentSnapshotsWhileScrapesAndMembershipChange() throws Exception {
    AtomicLong clock = new AtomicLong();
    Datastore store = new Datastore(DatastoreConfig.DEFAULT, new InFlightTracker(), clock::get);
    PoolDefinition full = DatastoreTest.pool("p", Engine.VLLM, ALL.toArray(String[]::new));
    PoolDefinition half = DatastoreTest.pool("p", Engine.VLLM, ALL.get(0), ALL.get(2));
    store.setPools(List.of(full));
    Set<List<String>> legalMemberships = Set.of(ALL, List.of(ALL.get(0), ALL.get(2)));
    Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch readersDone = new CountDownLatch(3);

    for (int r = 0; r < 3; r++) {
      Thread.ofPlatform()
          .start(
              () -> {
                try {
                  long snapshots = 0;
                  while (!stop.get() || snapshots < 1000) {
                    check(store.snapshot("p"), legalMemberships);
                    assertThat(store.available("p")).isBetween(0, ALL.size());
                    snapshots++;
                  }
                } catch (Throwable t) {
                  errors.add(t);
                } finally {
                  readersDone.countDown();
                }
              });
    }

    for (int i = 0; i < 20_000; i++) {
      String address = ALL.get(i % ALL.size());
      clock.addAndGet(1_000_000);
      if (i % 7 == 0) {
        store.onFailure(address, "timeout");
      } else {
        store.onSuccess(address, DatastoreTest.metrics(i % 50));
      }
      if (i % 1000 == 0) {
        store.putPool((i / 1000) % 2 == 0 ? half : full);
      }
    }
    stop.set(true);

    assertThat(readersDone.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(errors).isEmpty();
  }

  private static void check(PoolSnapshot snapshot, Set<List<String>> legal) {
    assertThat(snapshot.pool()).isEqualTo("p");
    List<String> addresses = snapshot.endpoints().stream().map(EndpointState::address).toList();
    assertThat(legal).contains(addresses);
    for (EndpointState s : snapshot.endpoints()) {
      if (s.available()) {
        assertThat(s.metrics().scrapedAtNanos()).isNotEqualTo(Long.MIN_VALUE);
      }
    }
  }
}
