package dev.pointsman.picker.replication;

import java.util.concurrent.atomic.AtomicLong;

/** Counters of the replication traffic and its failures, read by the metrics. Thread-safe. */
public final class ReplicationStats {
  final AtomicLong sent = new AtomicLong();
  final AtomicLong received = new AtomicLong();
  final AtomicLong bytesSent = new AtomicLong();
  final AtomicLong bytesReceived = new AtomicLong();
  final AtomicLong dropped = new AtomicLong();
  final AtomicLong oversize = new AtomicLong();
  final AtomicLong rejected = new AtomicLong();
  final AtomicLong sendFailures = new AtomicLong();
  final AtomicLong expired = new AtomicLong();
  final AtomicLong merges = new AtomicLong();
  final AtomicLong stateTransfers = new AtomicLong();
  final AtomicLong stateFailures = new AtomicLong();
  final AtomicLong budgetReports = new AtomicLong();
  final AtomicLong budgetsLocal = new AtomicLong();

  /** Reports of this replica's own budget use sent to its peers. */
  public long budgetReports() {
    return budgetReports.get();
  }

  /**
   * Times budgets fell back to this replica's own admissions (alone, partitioned, or a peer's
   * reports lost): tenants may then get up to one budget per replica.
   */
  public long budgetsLocal() {
    return budgetsLocal.get();
  }

  /** Messages sent. */
  public long sent() {
    return sent.get();
  }

  /** Messages received from peers. */
  public long received() {
    return received.get();
  }

  public long bytesSent() {
    return bytesSent.get();
  }

  public long bytesReceived() {
    return bytesReceived.get();
  }

  /** Updates dropped because the outgoing queue was full. */
  public long dropped() {
    return dropped.get();
  }

  /** Updates left out because even alone they exceed the message size bound. */
  public long oversize() {
    return oversize.get();
  }

  /** Messages received that this release cannot read (another version, or malformed). */
  public long rejected() {
    return rejected.get();
  }

  /** Batches that failed to send (the channel closing, a member leaving). */
  public long sendFailures() {
    return sendFailures.get();
  }

  /** Peer reports dropped for being stale while the peer stayed in the view. */
  public long expired() {
    return expired.get();
  }

  /** Healed partitions (JGroups merge views). */
  public long merges() {
    return merges.get();
  }

  /** State snapshots fetched and merged. */
  public long stateTransfers() {
    return stateTransfers.get();
  }

  /** State snapshots asked for and not received in time. */
  public long stateFailures() {
    return stateFailures.get();
  }
}
