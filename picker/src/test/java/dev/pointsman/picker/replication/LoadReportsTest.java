package dev.pointsman.picker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.InFlightTracker.Load;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LoadReportsTest {
  private static final long FULL = 1_000;
  private static final Load ONE = new Load(1, 10, 1, 10, 1, 10);
  private static final Load TWO = new Load(2, 20, 2, 20, 2, 20);

  private final LoadReports reports = new LoadReports(FULL);

  @Test
  void theFirstReportIsWholeThenOnlyChangesGo() {
    LoadReports.Report first = reports.next(Map.of("a", ONE, "b", ONE), 0, false);
    assertThat(first.delta()).isFalse();
    assertThat(first.number()).isEqualTo(1);
    assertThat(first.loads()).containsOnlyKeys("a", "b");

    assertThat(reports.next(Map.of("a", ONE, "b", ONE), 10, false)).isNull();

    LoadReports.Report changed = reports.next(Map.of("a", TWO, "b", ONE), 20, false);
    assertThat(changed.delta()).isTrue();
    assertThat(changed.number()).isEqualTo(2);
    assertThat(changed.loads()).isEqualTo(Map.of("a", TWO));
  }

  @Test
  void anEndpointThatLeftTheMapOrFellIdleIsReportedAsNone() {
    reports.next(Map.of("a", ONE, "b", ONE, "c", Load.NONE), 0, false);

    Map<String, Load> now = new HashMap<>();
    now.put("a", Load.NONE);
    LoadReports.Report r = reports.next(now, 5, false);

    assertThat(r.loads()).isEqualTo(Map.of("a", Load.NONE, "b", Load.NONE));
    assertThat(reports.next(Map.of(), 6, false)).isNull(); // nothing left to say
  }

  @Test
  void aWholeReportGoesAfterTheIntervalOrWhenAskedEvenIfNothingChanged() {
    reports.next(Map.of("a", ONE), 0, false);
    assertThat(reports.next(Map.of("a", ONE), FULL - 1, false)).isNull();

    LoadReports.Report due = reports.next(Map.of("a", ONE), FULL, false);
    assertThat(due.delta()).isFalse();
    assertThat(due.loads()).isEqualTo(Map.of("a", ONE));

    LoadReports.Report asked = reports.next(Map.of("a", ONE), FULL + 1, true);
    assertThat(asked.delta()).isFalse();
    assertThat(asked.number()).isEqualTo(3);
  }

  @Test
  void deltasAppliedInOrderRebuildTheSendersLoads() {
    long staleNanos = Long.MAX_VALUE / 4;
    InFlightTracker tracker = new InFlightTracker();
    PeerLoads peer = new PeerLoads(tracker, () -> 0L, staleNanos);
    Random rnd = new Random(7);
    Map<String, Load> own = new HashMap<>();
    for (long t = 0; t < 500; t++) {
      String e = "e" + rnd.nextInt(6);
      if (rnd.nextInt(3) == 0) {
        own.remove(e);
      } else {
        own.put(e, new Load(rnd.nextInt(4), rnd.nextInt(100), 0, 0, 0, 0));
      }
      LoadReports.Report r = reports.next(new HashMap<>(own), t, false);
      if (r != null) {
        peer.report("sender", r.number(), true, r.delta(), r.loads());
      }
      for (int i = 0; i < 6; i++) {
        assertThat(tracker.load("e" + i)).isEqualTo(own.getOrDefault("e" + i, Load.NONE));
      }
    }
  }

  @Test
  void aNonPositiveIntervalIsRefused() {
    assertThatThrownBy(() -> new LoadReports(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fullEveryNanos: 0");
  }
}
