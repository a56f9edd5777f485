package dev.pointsman.bench.routing.policy;

import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.replication.Outbox;
import dev.pointsman.picker.replication.PeerLoads;
import dev.pointsman.picker.replication.Update;
import dev.pointsman.picker.scheduling.InFlightTracker.Load;
import dev.pointsman.picker.scheduling.Scheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Picker replication in virtual time: what the production {@code Replicator} does over JGroups,
 * with the picker's own {@link Outbox} (each scheduler {@link Scheduler#shareWith shares} into
 * one), {@link Update}s (applied with the scheduler's {@code learn*} hooks) and {@link PeerLoads}
 * (the other members' in-flight reports, summed into the tracker's peer loads).
 *
 * <p>Every {@code batchMillis} (the picker's default, 50 ms) each member drains its outbox and,
 * when its own in-flight loads changed or at least every third of {@code staleMillis}, reports
 * them; the batch reaches every other member {@link #NETWORK_DELAY_NANOS} later. So a peer's fact
 * is never seen at once: one batch interval at most plus the network delay after it happened. The
 * first batch is one interval after the start, as the replicator schedules it. Not modelled: lost
 * or split messages, joins and partitions (every member is in the view from the start).
 *
 * <p>{@link #advance} runs the batches and deliveries due by now, in time order; the gateway calls
 * it before each event, so a decision sees exactly the facts delivered by its time.
 */
final class Sharing {
  /** The network's one-way delay within a cluster of picker pods (one zone): 1 ms. */
  static final long NETWORK_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final LongSupplier clock;
  private final long batchNanos;
  private final long reportEveryNanos;
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
    this.reportEveryNanos = staleNanos / 3;
    for (Scheduler s : schedulers) {
      Outbox outbox = Outbox.of(cfg);
      s.shareWith(outbox);
      members.add(new Member(s, outbox, new PeerLoads(s.inFlight(), () -> at, staleNanos)));
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
    Map<String, Load> own = m.scheduler.inFlight().ownLoads();
    boolean sendLoads =
        m.lastLoads == null || !own.equals(m.lastLoads) || at - m.lastLoadsAt >= reportEveryNanos;
    if (!sendLoads && updates.isEmpty()) {
      return;
    }
    if (sendLoads) {
      m.report++;
      m.lastLoads = own;
      m.lastLoadsAt = at;
    }
    sent.add(
        new Batch(
            at + NETWORK_DELAY_NANOS,
            i,
            sendLoads ? m.report : 0,
            sendLoads ? own : null,
            updates));
  }

  private void deliver(Batch b) {
    for (int i = 0; i < members.size(); i++) {
      if (i == b.from()) {
        continue;
      }
      Member m = members.get(i);
      if (b.loads() != null) {
        m.peers.report(Integer.toString(b.from()), b.report(), true, b.loads());
      }
      for (Update u : b.updates()) {
        u.applyTo(m.scheduler);
      }
    }
  }

  /** One member's batch, on its way to the others until {@code dueNanos}. */
  private record Batch(
      long dueNanos, int from, long report, Map<String, Load> loads, List<Update> updates) {}

  private static final class Member {
    final Scheduler scheduler;
    final Outbox outbox;
    final PeerLoads peers;
    long report;
    Map<String, Load> lastLoads;
    long lastLoadsAt;

    Member(Scheduler scheduler, Outbox outbox, PeerLoads peers) {
      this.scheduler = scheduler;
      this.outbox = outbox;
      this.peers = peers;
    }
  }
}
