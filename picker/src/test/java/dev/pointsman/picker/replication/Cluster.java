package dev.pointsman.picker.replication;

import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Picker replicas in one JVM, each a real scheduler and a real JGroups channel over TCP on
 * 127.0.0.1, every one listing all the cluster's ports as its static members (as a headless
 * Service's DNS name lists every pod).
 */
final class Cluster implements AutoCloseable {
  static final String MODEL = "m";
  static final List<String> ADDRESSES = List.of("10.0.0.1:8000", "10.0.0.2:8000");
  static final PoolSnapshot POOL =
      new PoolSnapshot(
          "gpu",
          ADDRESSES.stream()
              .map(
                  a ->
                      new EndpointState(
                          new Endpoint(a, "gpu", Map.of("gpu", "H100-80")),
                          new EndpointMetrics(
                              0, 0, 0.1, 448_000, Set.of(), Set.of(), 4, Double.NaN, 0),
                          true))
              .toList());
  private static final SchedulingPolicy POLICY =
      Plugins.build(new PolicyConfig(null, null, null, 0, null));

  private final int[] ports;
  private final int expected;
  private final int batchMillis;
  private final boolean shareLatencies;
  private final List<Replica> started = new ArrayList<>();
  private final List<Integer> startedIndex = new ArrayList<>();

  Cluster(int size) {
    this(size, 10);
  }

  Cluster(int size, int batchMillis) {
    this(size, batchMillis, true);
  }

  /**
   * @param shareLatencies whether replicas share every response's latencies (the tests of what
   *     travels) or, as the chart's default, each learns from its own
   */
  Cluster(int size, int batchMillis, boolean shareLatencies) {
    this.ports = LoopbackPorts.free(size);
    this.expected = size;
    this.batchMillis = batchMillis;
    this.shareLatencies = shareLatencies;
  }

  /** The replicas the cluster is made for. */
  int size() {
    return ports.length;
  }

  /** Starts replica {@code i} (its name is "r" + i), with this test's fast failure timers. */
  Replica start(int i) {
    return start(i, 5_000);
  }

  /** Starts replica {@code i}, which waits {@code stateTimeoutMillis} for a snapshot. */
  Replica start(int i, int stateTimeoutMillis) {
    return start(i, stateTimeoutMillis, TokenBudgets.none());
  }

  /** Starts replica {@code i}, sharing its use of {@code budgets} with the others. */
  Replica start(int i, TokenBudgets budgets) {
    return start(i, 5_000, budgets);
  }

  private Replica start(int i, int stateTimeoutMillis, TokenBudgets budgets) {
    List<String> members = new ArrayList<>();
    for (int p : ports) {
      members.add("127.0.0.1:" + p);
    }
    ReplicationSection cfg =
        new ReplicationSection(
            true,
            "test-" + ports[0],
            new ReplicationSection.Discovery(null, members),
            "127.0.0.1",
            ports[i],
            batchMillis,
            1_000,
            null,
            60_000,
            stateTimeoutMillis,
            1_000,
            1_000,
            expected,
            shareLatencies);
    Scheduler scheduler =
        new Scheduler(
            new PrefixIndex( // the picker's index, but a smaller bound
                10_000,
                PrefixIndex.Forgetting.TAIL_FIRST,
                PrefixIndex.UNBOUNDED,
                PickerApp.PREFIX_CHECKPOINTS),
            new InFlightTracker(),
            PrefixHasher.DEFAULT,
            System::nanoTime);
    Replicator replicator =
        new Replicator(cfg, "r" + i, scheduler, System::nanoTime, budgets).start();
    Replica r = new Replica(scheduler, replicator);
    started.add(r);
    startedIndex.add(i);
    return r;
  }

  /**
   * Where every started replica stands: its JGroups view, replication status and counters (for a
   * wait's timeout message).
   */
  String describe() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < started.size(); i++) {
      Replicator r = started.get(i).replicator();
      int index = startedIndex.get(i);
      var ch = r.channel();
      ReplicationStats st = r.stats();
      sb.append(
          String.format(
              "%n  r%d port %d: view %s, %s, merges %d, state transfers %d/%d failed, sent %d,"
                  + " received %d",
              index,
              ports[index],
              ch == null ? "none" : ch.getView(),
              r.status(),
              st.merges(),
              st.stateTransfers(),
              st.stateFailures(),
              st.sent(),
              st.received()));
    }
    return sb.toString();
  }

  @Override
  public void close() {
    started.forEach(r -> r.replicator().close());
  }

  /** A scheduler alone, its prefix index keeping prompts by {@code checkpoints}, its clock 0. */
  static Scheduler scheduler(PrefixIndex.Checkpoints checkpoints) {
    return new Scheduler(
        new PrefixIndex(
            100_000, PrefixIndex.Forgetting.TAIL_FIRST, PrefixIndex.UNBOUNDED, checkpoints),
        new InFlightTracker(),
        PrefixHasher.DEFAULT,
        () -> 0L);
  }

  record Replica(Scheduler scheduler, Replicator replicator) {
    /** Routes one request with this prompt; its in-flight hold stays until released. */
    Decision.Picked pick(String prompt) {
      SchedulingRequest req =
          new SchedulingRequest("r", MODEL, null, prompt, 1_000, 100, false, null);
      return (Decision.Picked) scheduler.schedule(req, POOL, POLICY, new SplittableRandom(7));
    }

    int members() {
      return replicator.status().members();
    }

    /** Live requests on {@code address}, this replica's and its peers'. */
    int live(String address) {
      return scheduler.inFlight().load(address).liveRequests();
    }

    /** Leading blocks of {@code prompt} this replica's index says {@code address} holds. */
    int matched(String prompt, String address) {
      long[] blocks = PrefixHasher.DEFAULT.hash(MODEL, prompt);
      return scheduler.prefixIndex().match(blocks, List.of(address))[0];
    }
  }

  static int blocks(String prompt) {
    return PrefixHasher.DEFAULT.hash(MODEL, prompt).length;
  }
}
