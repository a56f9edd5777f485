package dev.pointsman.picker.replication;

import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.InFlightTracker.Load;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The latest in-flight report of every other member, summed per endpoint into the tracker's peer
 * loads. A member counts only while it is in the view and its last complete report is younger than
 * {@code staleNanos}. A report may span several messages (parts of one report number, the last one
 * flagged); it takes effect when its last part arrives. Members are keyed by name (JGroups' address
 * text), so this class sees no JGroups type (the bench drives it in virtual time).
 *
 * <p>Thread-safe: every method holds the monitor; called by the channel's receive threads and the
 * batch thread, never by a decision.
 */
public final class PeerLoads {
  private final InFlightTracker tracker;
  private final LongSupplier nanoClock;
  private final long staleNanos;
  private final Map<String, Member> members = new HashMap<>();

  public PeerLoads(InFlightTracker tracker, LongSupplier nanoClock, long staleNanos) {
    this.tracker = tracker;
    this.nanoClock = nanoClock;
    this.staleNanos = staleNanos;
  }

  /** A part of {@code member}'s whole load report {@code report}. */
  public void report(String member, long report, boolean last, Map<String, Load> part) {
    report(member, report, last, false, part);
  }

  /**
   * A part of {@code member}'s load report {@code report}: its whole map, or with {@code delta}
   * only the endpoints whose load changed ({@link Load#NONE}: none any more) on top of its last.
   */
  public synchronized void report(
      String member, long report, boolean last, boolean delta, Map<String, Load> part) {
    Member m = members.computeIfAbsent(member, k -> new Member());
    if (m.building == null || m.buildingReport != report) {
      m.building = new HashMap<>();
      m.buildingReport = report;
    }
    m.building.putAll(part);
    if (last) {
      // a delta lands on the member's table in place (no one else holds it); a whole report
      // starts a new one. Either way an endpoint reported as NONE has nothing in flight.
      Map<String, Load> table = delta && m.current != null ? m.current : new HashMap<>();
      m.building.forEach(
          (address, load) -> {
            if (load.equals(Load.NONE)) {
              table.remove(address);
            } else {
              table.put(address, load);
            }
          });
      m.current = table;
      m.building = null;
      m.reportedAt = nanoClock.getAsLong();
      publish();
    }
  }

  /** Keeps only the members of the current view. */
  synchronized void retain(Collection<String> view) {
    if (members.keySet().retainAll(view)) {
      publish();
    }
  }

  /** Drops members whose last report is older than the stale bound; returns how many. */
  public synchronized int expire() {
    long now = nanoClock.getAsLong();
    int before = members.size();
    members.values().removeIf(m -> m.current != null && now - m.reportedAt > staleNanos);
    if (members.size() != before) {
      publish();
    }
    return before - members.size();
  }

  /** Members whose report counts now. */
  synchronized int reporting() {
    return (int) members.values().stream().filter(m -> m.current != null).count();
  }

  private void publish() {
    Map<String, Load> sum = new HashMap<>();
    for (Member m : members.values()) {
      if (m.current != null) {
        m.current.forEach((a, l) -> sum.merge(a, l, Load::plus));
      }
    }
    tracker.peerLoads(sum);
  }

  private static final class Member {
    Map<String, Load> current;
    long reportedAt;
    Map<String, Load> building;
    long buildingReport;
  }
}
