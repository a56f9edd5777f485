package dev.pointsman.picker.replication;

import dev.pointsman.picker.scheduling.InFlightTracker.Load;
import java.util.HashMap;
import java.util.Map;

/**
 * What a replica tells its peers of its own in-flight work, batch by batch: the endpoints whose
 * load changed since its last report (a delta, an idle endpoint as {@link Load#NONE}), and the
 * whole map at least every {@code fullEveryNanos} and after a view change, so a peer that joined or
 * missed nothing still converges within that time. A delta costs what changed, not the size of the
 * pool, so reports can go every few milliseconds: a peer's view of this replica's work is at most
 * one batch old, and replicas choosing on the same state do not all send the same endpoint the work
 * of one stale interval. Not thread-safe: used by the one thread that sends batches.
 */
public final class LoadReports {
  /** One report to send: its number (from 1), the loads, and whether they are only the changes. */
  public record Report(long number, Map<String, Load> loads, boolean delta) {}

  private final long fullEveryNanos;
  private long number;
  private Map<String, Load> last;
  private long lastFullAt;

  /**
   * @param fullEveryNanos the longest time between two whole reports
   */
  public LoadReports(long fullEveryNanos) {
    if (fullEveryNanos <= 0) {
      throw new IllegalArgumentException("fullEveryNanos: " + fullEveryNanos + " (expected > 0)");
    }
    this.fullEveryNanos = fullEveryNanos;
  }

  /**
   * The report due at {@code now} for {@code own} (this replica's current loads, a map the caller
   * no longer changes), or null when nothing changed and no whole report is due.
   *
   * @param whole send the whole map now (the view changed: a new member has no earlier report)
   */
  public Report next(Map<String, Load> own, long now, boolean whole) {
    if (last == null || whole || now - lastFullAt >= fullEveryNanos) {
      last = own;
      lastFullAt = now;
      return new Report(++number, own, false);
    }
    Map<String, Load> changes = new HashMap<>();
    own.forEach(
        (address, load) -> {
          if (!load.equals(last.getOrDefault(address, Load.NONE))) {
            changes.put(address, load);
          }
        });
    last.forEach(
        (address, load) -> {
          if (!own.containsKey(address) && !load.equals(Load.NONE)) {
            changes.put(address, Load.NONE);
          }
        });
    if (changes.isEmpty()) {
      return null;
    }
    last = own;
    return new Report(++number, changes, true);
  }
}
