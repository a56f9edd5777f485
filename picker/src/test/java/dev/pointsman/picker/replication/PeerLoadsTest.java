package dev.pointsman.picker.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.InFlightTracker.Load;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PeerLoadsTest {
  private static final String X = "10.0.0.1:8000";
  private static final long STALE = 3_000_000_000L;

  private final AtomicLong now = new AtomicLong();
  private final InFlightTracker tracker = new InFlightTracker();
  private final PeerLoads peers = new PeerLoads(tracker, now::get, STALE);

  @Test
  void theLatestReportOfEachLiveMemberIsAddedToTheOwnLoad() {
    tracker.assign(X, 100);
    peers.report("b", 1, true, Map.of(X, new Load(1, 10, 1, 10, 1, 10)));
    peers.report("c", 1, true, Map.of(X, new Load(2, 20, 2, 20, 2, 20)));
    peers.report("b", 2, true, Map.of(X, new Load(0, 0, 4, 40, 0, 0)));

    assertThat(tracker.load(X)).isEqualTo(new Load(3, 120, 7, 160, 3, 120));
    assertThat(tracker.ownLoad(X)).isEqualTo(new Load(1, 100, 1, 100, 1, 100));
  }

  @Test
  void aReportInPartsTakesEffectWithItsLastPartAndReplacesTheWholeTable() {
    peers.report("b", 1, true, Map.of("y:1", new Load(5, 5, 5, 5, 5, 5)));
    peers.report("b", 2, false, Map.of(X, new Load(1, 1, 1, 1, 1, 1)));
    assertThat(tracker.load(X)).isEqualTo(Load.NONE);

    peers.report("b", 2, true, Map.of());

    assertThat(tracker.load(X)).isEqualTo(new Load(1, 1, 1, 1, 1, 1));
    assertThat(tracker.load("y:1")).isEqualTo(Load.NONE); // not in report 2: finished
  }

  @Test
  void aDeltaChangesOnlyTheEndpointsItNamesAndNoneRemovesOne() {
    peers.report(
        "b", 1, true, Map.of(X, new Load(1, 1, 1, 1, 1, 1), "y:1", new Load(2, 2, 2, 2, 2, 2)));
    peers.report("c", 1, true, Map.of(X, new Load(4, 4, 4, 4, 4, 4)));

    peers.report("b", 2, true, true, Map.of(X, new Load(3, 3, 3, 3, 3, 3)));
    assertThat(tracker.load(X)).isEqualTo(new Load(7, 7, 7, 7, 7, 7));
    assertThat(tracker.load("y:1")).isEqualTo(new Load(2, 2, 2, 2, 2, 2)); // not named: kept

    peers.report("b", 3, false, true, Map.of("y:1", Load.NONE));
    assertThat(tracker.load("y:1")).isEqualTo(new Load(2, 2, 2, 2, 2, 2)); // not its last part yet
    peers.report("b", 3, true, true, Map.of());
    assertThat(tracker.load("y:1")).isEqualTo(Load.NONE);
    assertThat(tracker.load(X)).isEqualTo(new Load(7, 7, 7, 7, 7, 7));

    peers.report("b", 4, true, Map.of()); // a whole report replaces everything
    assertThat(tracker.load(X)).isEqualTo(new Load(4, 4, 4, 4, 4, 4));
  }

  @Test
  void aDeltaBeforeAnyWholeReportCountsWhatItNames() {
    peers.report("b", 5, true, true, Map.of(X, new Load(1, 1, 1, 1, 1, 1), "y:1", Load.NONE));

    assertThat(tracker.load(X)).isEqualTo(new Load(1, 1, 1, 1, 1, 1));
    assertThat(peers.reporting()).isEqualTo(1);
  }

  @Test
  void aMemberThatLeftTheViewNoLongerCounts() {
    peers.report("b", 1, true, Map.of(X, new Load(1, 1, 1, 1, 1, 1)));
    peers.report("c", 1, true, Map.of(X, new Load(2, 2, 2, 2, 2, 2)));

    peers.retain(List.of("a", "c"));

    assertThat(tracker.load(X)).isEqualTo(new Load(2, 2, 2, 2, 2, 2));
    assertThat(peers.reporting()).isEqualTo(1);
  }

  @Test
  void aMemberSilentPastTheStaleBoundNoLongerCounts() {
    peers.report("b", 1, true, Map.of(X, new Load(1, 1, 1, 1, 1, 1)));
    now.addAndGet(STALE / 2);
    peers.report("c", 1, true, Map.of(X, new Load(2, 2, 2, 2, 2, 2)));

    now.addAndGet(STALE / 2);
    assertThat(peers.expire()).isZero(); // b is exactly at the bound
    now.addAndGet(1);

    assertThat(peers.expire()).isEqualTo(1);
    assertThat(tracker.load(X)).isEqualTo(new Load(2, 2, 2, 2, 2, 2));
  }
}
