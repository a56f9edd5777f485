package dev.pointsman.bench.routing.policy;

import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.replication.LoadReports;
import dev.pointsman.picker.replication.Outbox;
import dev.pointsman.picker.replication.PeerLoads;
import dev.pointsman.picker.replication.Update;
import dev.pointsman.picker.scheduling.Scheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Picker replication in virtual time: what the production {@code Replicator} does over JGroups,
 * with the picker's own {@link Outbox} (each scheduler {@link Scheduler#shareWith shares} into
 * one), {@link Update}s (applied with the scheduler's {@code learn*} hooks) and {@link PeerLoads}
 * (the other members' in-flight reports, summed into the tracker's peer loads).
 *
 * <p>Every {@code batchMillis} (the picker's default, 5 ms) each member drains its outbox and
 * reports its own in-flight loads as the production replicator does ({@link LoadReports}: what
 * changed, and the whole map at least every third of {@code staleMillis}); the batch reaches every
 * other member {@link #NETWORK_DELAY_NANOS} later. So a peer's fact is never seen at once: one
 * batch interval at most plus the network delay after it happened. The first batch is one interval
 * after the start, as the replicator schedules it. Each member trains its latency models on its own
 * responses and is told how many members split them, as the replicator tells a picker its view's
 * size. Not modelled: lost or split messages, joins and partitions (every member is in the view
 * from the start).
 *
 * <p>{@link #advance} runs the batches and deliveries due by now, in time order; the gateway calls
 * it before each event, so a decision sees exactly the facts delivered by its time.
 */
final class Sharing {
  /** The network's one-way delay within a cluster of picker pods (one zone): 1 ms. */
  static final long NETWORK_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final LongSupplier clock;
  private final long batchNanos;
  private final List<Member> members = new ArrayList<>();
  private final ArrayDeque<Batch> sent = new ArrayDeque<>();
  private long nextBatch;
  private long at;

  /**
   * @param schedulers one per replica; each from now on shares what it learns
   * @param clock virtual time, in ns
   */
  Sharing(List<Scheduler> schedulers, ReplicationSection cfg, LongSupplier clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.batchNanos = TimeUnit.MILLISECONDS.toNanos(cfg.batchMillis());
    long staleNanos = TimeUnit.MILLISECONDS.toNanos(cfg.staleMillis());
    for (Scheduler s : schedulers) {
      Outbox outbox = Outbox.of(cfg, s.prefixIndex().checkpoints()); // as the replicator does
      s.shareWith(outbox);
      s.learnFromShareOf(cfg.latencySplit(schedulers.size())); // as the replicator does
      members.add(
          new Member(
              s,
              outbox,
              new PeerLoads(s.inFlight(), () -> at, staleNanos),
              new LoadReports(staleNanos / 3)));
    }
    this.at = clock.getAsLong();
    this.nextBatch = at + batchNanos;
  }

  /** Runs every batch and delivery due by now, oldest first. */
  void advance() {
    long now = clock.getAsLong();
    while (true) {
      long due = sent.isEmpty() ? Long.MAX_VALUE : sent.peek().dueNanos();
      if (due <= now && due <= nextBatch) {
        at = due;
        deliver(sent.poll());
      } else if (nextBatch <= now) {
        at = nextBatch;
        for (int i = 0; i < members.size(); i++) {
          send(i);
        }
        nextBatch += batchNanos;
      } else {
        return;
      }
    }
  }

  /** Updates dropped because an outbox was full, over all members. */
  long dropped() {
    return members.stream().mapToLong(m -> m.outbox.dropped()).sum();
  }

  private void send(int i) {
    Member m = members.get(i);
    m.peers.expire();
    List<Update> updates = m.outbox.drain();
    LoadReports.Report r = m.reports.next(m.scheduler.inFlight().ownLoads(), at, false);
    if (r == null && updates.isEmpty()) {
      return;
    }
    sent.add(new Batch(at + NETWORK_DELAY_NANOS, i, r, updates));
  }

  private void deliver(Batch b) {
    for (int i = 0; i < members.size(); i++) {
      if (i == b.from()) {
        continue;
      }
      Member m = members.get(i);
      if (b.report() != null) {
        LoadReports.Report r = b.report();
        m.peers.report(Integer.toString(b.from()), r.number(), true, r.delta(), r.loads());
      }
      for (Update u : b.updates()) {
        u.applyTo(m.scheduler);
      }
    }
  }

  /** One member's batch, on its way to the others until {@code dueNanos}; no report: null. */
  private record Batch(long dueNanos, int from, LoadReports.Report report, List<Update> updates) {}

  private static final class Member {
    final Scheduler scheduler;
    final Outbox outbox;
    final PeerLoads peers;
    final LoadReports reports;

    Member(Scheduler scheduler, Outbox outbox, PeerLoads peers, LoadReports reports) {
      this.scheduler = scheduler;
      this.outbox = outbox;
      this.peers = peers;
      this.reports = reports;
    }
  }
}
