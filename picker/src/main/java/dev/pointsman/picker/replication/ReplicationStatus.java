package dev.pointsman.picker.replication;

/**
 * Where a replica stands with its peers, for {@code /readyz} detail and metrics. None of it fails
 * readiness: each replica routes on its own state whatever this says.
 *
 * @param state {@code off}, {@code starting}, {@code alone} (no peer in the view), {@code joined}
 *     or {@code partitioned} (fewer members than expected, more than one)
 * @param members members in the current view, this one included (0 before joining)
 * @param reporting peers whose in-flight report counts now (in the view and not stale)
 * @param cold whether it joined peers but got no state snapshot in time: it serves on what it
 *     learns from now on
 * @param error the last join or state-transfer failure, or null
 */
public record ReplicationStatus(
    String state, int members, int reporting, boolean cold, String error) {
  public static final ReplicationStatus OFF = new ReplicationStatus("off", 0, 0, false, null);

  /** One line for {@code /readyz}. */
  public String detail() {
    return "replication: "
        + state
        + ", members "
        + members
        + ", reporting peers "
        + reporting
        + (cold ? ", cold (no state snapshot: serving on what it learns from now)" : "")
        + (error == null ? "" : ", last error: " + error);
  }
}
