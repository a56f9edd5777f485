package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.replication.ReplicationStats;
import dev.pointsman.picker.replication.Replicator;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The replication meters: traffic and failures as counters, the members and the state as gauges
 * ({@code pointsman_replication_state{state=...}} is 1 for the current state, 0 for the others).
 */
public final class ReplicationMeters {
  private static final List<String> STATES = List.of("starting", "alone", "joined", "partitioned");

  private ReplicationMeters() {}

  public static void register(MeterRegistry registry, Replicator replicator) {
    counter(
        registry,
        "pointsman.replication.messages",
        "sent",
        "Messages sent to peers",
        replicator,
        s -> s.sent());
    counter(
        registry,
        "pointsman.replication.messages",
        "received",
        "Messages received",
        replicator,
        s -> s.received());
    counter(
        registry,
        "pointsman.replication.messages",
        "rejected",
        "Messages refused: another version or malformed",
        replicator,
        s -> s.rejected());
    counter(
        registry,
        "pointsman.replication.messages",
        "send_failed",
        "Batches that failed to send",
        replicator,
        s -> s.sendFailures());
    counter(
        registry,
        "pointsman.replication.bytes",
        "sent",
        "Bytes of messages sent",
        replicator,
        s -> s.bytesSent());
    counter(
        registry,
        "pointsman.replication.bytes",
        "received",
        "Bytes of messages received",
        replicator,
        s -> s.bytesReceived());
    counter(
        registry,
        "pointsman.replication.updates.dropped",
        "queue_full",
        "Updates dropped because the outgoing queue was full",
        replicator,
        s -> s.dropped());
    counter(
        registry,
        "pointsman.replication.updates.dropped",
        "oversize",
        "Updates dropped because they exceed the message size bound",
        replicator,
        s -> s.oversize());
    counter(
        registry,
        "pointsman.replication.peer.reports.expired",
        null,
        "Peer in-flight reports dropped as stale while the peer stayed in the view",
        replicator,
        s -> s.expired());
    counter(
        registry,
        "pointsman.replication.merges",
        null,
        "Healed partitions (merge views)",
        replicator,
        s -> s.merges());
    counter(
        registry,
        "pointsman.replication.state.transfers",
        "ok",
        "State snapshots fetched and merged",
        replicator,
        s -> s.stateTransfers());
    counter(
        registry,
        "pointsman.replication.state.transfers",
        "failed",
        "State snapshots not received in time",
        replicator,
        s -> s.stateFailures());
    gauge(
        registry,
        "pointsman.replication.members",
        "Members in the view, this one included",
        replicator,
        r -> r.status().members());
    counter(
        registry,
        "pointsman.replication.budgets.local",
        null,
        "Times tenant budgets fell back to this replica's own admissions (alone, partitioned, or"
            + " a peer's use not reported)",
        replicator,
        s -> s.budgetsLocal());
    gauge(
        registry,
        "pointsman.replication.budgets.shared",
        "1 when tenant budgets count every expected peer's use",
        replicator,
        r -> r.budgetsShared() ? 1 : 0);
    gauge(
        registry,
        "pointsman.replication.cold",
        "1 when this replica joined peers but got no state snapshot in time",
        replicator,
        r -> r.status().cold() ? 1 : 0);
    for (String state : STATES) {
      Gauge.builder(
              "pointsman.replication.state",
              replicator,
              r -> r.status().state().equals(state) ? 1 : 0)
          .description("1 for the replica's current replication state")
          .tag("state", state)
          .register(registry);
    }
  }

  private static void counter(
      MeterRegistry registry,
      String name,
      String result,
      String description,
      Replicator replicator,
      ToDoubleFunction<ReplicationStats> f) {
    var b =
        FunctionCounter.builder(name, replicator, r -> f.applyAsDouble(r.stats()))
            .description(description);
    if (result != null) {
      b = b.tag("result", result);
    }
    b.register(registry);
  }

  private static void gauge(
      MeterRegistry registry,
      String name,
      String description,
      Replicator replicator,
      ToDoubleFunction<Replicator> f) {
    Gauge.builder(name, replicator, f).description(description).register(registry);
  }
}
