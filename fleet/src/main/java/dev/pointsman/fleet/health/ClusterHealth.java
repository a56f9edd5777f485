package dev.pointsman.fleet.health;

import java.util.Objects;

/**
 * Whether one cluster may take traffic, and how much: drained (share 0) while its summary is stale
 * or failing, or for {@link Failover#ejectMillis} after its error rate tripped; back from a drain,
 * its share ramps linearly from 0 to 1 over {@link Failover#rampMillis}, so the traffic that left
 * it comes back gradually instead of all at once. Requests already sent to a cluster are never
 * recalled: draining only stops new ones.
 *
 * <p>Shared mutable state, named: written by the summary poller and by request outcomes, read per
 * request. Thread-safe: every method is synchronized and short. Time is passed in (nanoseconds, one
 * monotonic clock).
 */
public final class ClusterHealth {
  /** Why a cluster takes no traffic; {@code UP} when it does. */
  public enum State {
    UP,
    RAMPING,
    NO_SUMMARY,
    STALE,
    SUMMARY_FAILING,
    ERRORS
  }

  private final Failover failover;
  private long lastSummary = Long.MIN_VALUE;
  private int failuresInARow;
  private long windowStart = Long.MIN_VALUE;
  private int windowRequests;
  private int windowErrors;
  private long ejectedUntil = Long.MIN_VALUE;
  private boolean wasUp;
  private boolean drainedSinceUp;
  private long rampStart = Long.MIN_VALUE;
  private long drains;

  public ClusterHealth(Failover failover) {
    this.failover = Objects.requireNonNull(failover, "failover");
  }

  /** A summary arrived (and was accepted). */
  public synchronized void summaryReceived(long now) {
    lastSummary = now;
    failuresInARow = 0;
    state(now);
  }

  /** A summary read failed. */
  public synchronized void summaryFailed(long now) {
    failuresInARow++;
    state(now);
  }

  /** A request sent to this cluster ended: {@code failed} for a 5xx or no response at all. */
  public synchronized void outcome(boolean failed, long now) {
    if (windowStart == Long.MIN_VALUE || now - windowStart >= millis(failover.windowMillis())) {
      windowStart = now;
      windowRequests = 0;
      windowErrors = 0;
    }
    windowRequests++;
    if (failed) {
      windowErrors++;
    }
    if (windowRequests >= failover.minRequests()
        && windowErrors >= failover.errorRate() * windowRequests
        && now >= ejectedUntil) {
      ejectedUntil = now + millis(failover.ejectMillis());
      windowStart = Long.MIN_VALUE;
    }
    state(now);
  }

  /** The share of its traffic the cluster may take now, 0..1. */
  public synchronized double share(long now) {
    State s = state(now);
    if (s == State.UP) {
      return 1;
    }
    if (s != State.RAMPING) {
      return 0;
    }
    return Math.min(1, (double) (now - rampStart) / millis(failover.rampMillis()));
  }

  /** Where the cluster stands now. */
  public synchronized State state(long now) {
    State down = down(now);
    if (down != null) {
      if (wasUp) {
        drains++;
        drainedSinceUp = true;
      }
      wasUp = false;
      return down;
    }
    if (!wasUp) {
      wasUp = true;
      rampStart = now;
    }
    if (drainedSinceUp && now - rampStart < millis(failover.rampMillis())) {
      return State.RAMPING;
    }
    return State.UP;
  }

  /** Summary reads that failed since the last one that succeeded. */
  public synchronized int summaryFailuresInARow() {
    return failuresInARow;
  }

  /** How many times the cluster was drained. */
  public synchronized long drains() {
    return drains;
  }

  private State down(long now) {
    if (lastSummary == Long.MIN_VALUE) {
      return State.NO_SUMMARY;
    }
    if (now < ejectedUntil) {
      return State.ERRORS;
    }
    if (failuresInARow >= failover.summaryFailures()) {
      return State.SUMMARY_FAILING;
    }
    if (now - lastSummary > millis(failover.staleAfterMillis())) {
      return State.STALE;
    }
    return null;
  }

  private static long millis(long ms) {
    return ms * 1_000_000L;
  }
}
