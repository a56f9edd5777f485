package dev.pointsman.picker.replication;

import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.flowcontrol.BudgetUse;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.replication.WireFormat.WireException;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Learning;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.MergeView;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shares what this replica learns with the other picker replicas over a JGroups channel, and
 * applies what they learn: asynchronously, never on a decision. Decisions read only local state,
 * into which the peers' facts are merged as they arrive ({@link PeerLoads} for in-flight work, the
 * scheduler's own structures for picks and observations).
 *
 * <p>Every {@code batchMillis} one thread sends the queued updates and this replica's own in-flight
 * work where it changed ({@link LoadReports}: the changes, and the whole map at least every third
 * of {@code staleMillis} and after a view change), in messages of bounded size. A replica joining
 * peers fetches a {@link Snapshot} (JGroups state transfer) before {@link #settled()}; when a
 * partition heals (a JGroups merge view) each side fetches the other's and merges it. Any failure
 * leaves the replica routing on its own state, counted in {@link #stats()}.
 */
public final class Replicator implements Receiver, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Replicator.class);

  private final ReplicationSection cfg;
  private final String name;
  private final Scheduler scheduler;
  private final LongSupplier nanoClock;
  private final Outbox outbox;
  private final PeerLoads peers;
  private final ReplicationStats stats = new ReplicationStats();
  private final ScheduledExecutorService executor;
  private volatile JChannel channel;
  private volatile View view;
  private volatile boolean settled;
  private volatile boolean cold;
  private volatile String error;
  private final AtomicBoolean viewChanged = new AtomicBoolean();
  private final LoadReports reports;
  private final TokenBudgets budgets;
  private List<BudgetUse> lastUse;
  private long lastUseAt;
  private volatile boolean budgetsShared;

  /**
   * @param name this member's name in the cluster (the pod name): unique among the replicas
   * @param nanoClock monotonic time, for staleness and the report interval
   */
  public Replicator(
      ReplicationSection cfg, String name, Scheduler scheduler, LongSupplier nanoClock) {
    this(cfg, name, scheduler, nanoClock, TokenBudgets.none());
  }

  /**
   * @param budgets the tenants' budgets: this replica sends its own use of them with each batch
   *     where it changed (and after a view change, and at least every third of {@code
   *     staleMillis}), and folds in the use its peers send, so that the replicas together admit
   *     about one budget, not one each
   */
  public Replicator(
      ReplicationSection cfg,
      String name,
      Scheduler scheduler,
      LongSupplier nanoClock,
      TokenBudgets budgets) {
    this.budgets = budgets;
    this.cfg = cfg;
    this.name = name;
    this.scheduler = scheduler;
    this.nanoClock = nanoClock;
    this.outbox = Outbox.of(cfg, scheduler.prefixIndex().checkpoints());
    this.reports = new LoadReports(TimeUnit.MILLISECONDS.toNanos(cfg.staleMillis()) / 3);
    this.peers =
        new PeerLoads(
            scheduler.inFlight(), nanoClock, TimeUnit.MILLISECONDS.toNanos(cfg.staleMillis()));
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "pointsman-replication");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * A member that shares tenant budgets only (the fleet tier's replicas): it routes on no pods, so
   * its scheduler stays empty and it sends no facts or in-flight work, only its budget use, which
   * it folds in from its peers as a picker replica does; the join snapshot carries the balances.
   */
  public static Replicator forBudgets(
      ReplicationSection cfg, String name, LongSupplier nanoClock, TokenBudgets budgets) {
    Scheduler none =
        new Scheduler(new PrefixIndex(1), new InFlightTracker(), PrefixHasher.DEFAULT, nanoClock);
    return new Replicator(cfg, name, none, nanoClock, budgets);
  }

  /**
   * This replica's name among its peers: the pod's ({@code POD_NAME}, which the chart sets), else
   * the host's and the process id.
   */
  public static String defaultMemberName() {
    String pod = System.getenv("POD_NAME");
    if (pod != null && !pod.isBlank()) {
      return pod;
    }
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      host = "replica";
    }
    return host + "-" + ProcessHandle.current().pid();
  }

  /**
   * What {@code /debug/replication} shows: where {@code replicator} stands with its peers ({@code
   * off} when it is null) and its traffic and budget counters.
   */
  public static Map<String, Object> report(Replicator replicator) {
    ReplicationStatus s = replicator == null ? ReplicationStatus.OFF : replicator.status();
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    out.put("state", s.state());
    out.put("members", s.members());
    out.put("reportingPeers", s.reporting());
    out.put("cold", s.cold());
    out.put("error", s.error());
    if (replicator != null) {
      ReplicationStats st = replicator.stats();
      out.put("messagesSent", st.sent());
      out.put("messagesReceived", st.received());
      out.put("bytesSent", st.bytesSent());
      out.put("bytesReceived", st.bytesReceived());
      out.put("updatesDropped", st.dropped() + st.oversize());
      out.put("messagesRejected", st.rejected());
      out.put("budgetsShared", replicator.budgetsShared());
      out.put("budgetReportsSent", st.budgetReports());
      out.put("budgetsFellBackToLocal", st.budgetsLocal());
    }
    return out;
  }

  /** Joins the cluster in the background and starts sending batches. */
  public Replicator start() {
    scheduler.shareWith(outbox);
    executor.execute(this::join);
    executor.scheduleWithFixedDelay(
        this::tick, cfg.batchMillis(), cfg.batchMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * Whether joining is over: connected and, with peers, a state snapshot fetched or given up on
   * (then {@link ReplicationStatus#cold()}). A replica reports ready only once this holds.
   */
  public boolean settled() {
    return settled;
  }

  public ReplicationStatus status() {
    View v = view;
    int members = v == null ? 0 : v.size();
    String state;
    if (!settled && v == null) {
      state = "starting";
    } else if (members <= 1) {
      state = "alone";
    } else if (cfg.expectedMembers() > 0 && members < cfg.expectedMembers()) {
      state = "partitioned";
    } else {
      state = "joined";
    }
    return new ReplicationStatus(state, members, peers.reporting(), cold, error);
  }

  /** This replica's outbox (tests: whether its batch thread has taken what was queued). */
  Outbox outbox() {
    return outbox;
  }

  public ReplicationStats stats() {
    stats.dropped.set(outbox.dropped());
    return stats;
  }

  /** The updates this replica's scheduler hands to the replicator. */
  Learning learning() {
    return outbox;
  }

  JChannel channel() {
    return channel;
  }

  private void join() {
    try {
      JChannel ch = new JChannel(Stacks.of(cfg));
      ch.name(name).setReceiver(this).setDiscardOwnMessages(true);
      channel = ch;
      ch.connect(cfg.cluster());
      if (ch.getView().size() > 1) {
        fetchState(null, true);
      }
    } catch (Exception e) {
      error = "cannot join cluster " + cfg.cluster() + " (" + e.getMessage() + ")";
      LOG.error("replication: {}; routing on this replica's own state", error);
    } finally {
      settled = true;
    }
  }

  /** Fetches a snapshot from {@code from} (null: the coordinator) and merges it in. */
  private void fetchState(Address from, boolean joining) {
    try {
      channel.getState(from, cfg.stateTimeoutMillis());
      stats.stateTransfers.incrementAndGet();
      if (joining) {
        cold = false;
      }
    } catch (Exception e) {
      stats.stateFailures.incrementAndGet();
      cold |= joining;
      Throwable cause = e.getCause() == null ? e : e.getCause();
      error = "state transfer from " + (from == null ? "the coordinator" : from) + ": " + cause;
      LOG.warn("replication: {}; serving on this replica's own state", error);
    }
  }

  private void tick() {
    try {
      int expired = peers.expire();
      stats.expired.addAndGet(expired);
      List<Update> updates = outbox.drain();
      JChannel ch = channel;
      View v = view;
      if (ch == null || !ch.isConnected() || v == null || v.size() < 2) {
        budgetsAlone();
        return; // nobody to tell; a peer joining later fetches a snapshot
      }
      boolean whole = viewChanged.getAndSet(false);
      long now = nanoClock.getAsLong();
      LoadReports.Report r = reports.next(scheduler.inFlight().ownLoads(), now, whole);
      long[] oversize = new long[1];
      List<byte[]> messages = new ArrayList<>();
      if (r != null || !updates.isEmpty()) {
        messages.addAll(
            WireFormat.encode(
                r == null ? 0 : r.number(),
                r == null ? null : r.loads(),
                r != null && r.delta(),
                updates,
                scheduler.prefixIndex().checkpoints(),
                cfg.maxMessageBytes(),
                oversize));
      }
      messages.addAll(budgetMessages(now, whole, oversize));
      budgetsShared(v);
      stats.oversize.addAndGet(oversize[0]);
      for (byte[] m : messages) {
        ch.send(new BytesMessage(null, m));
        stats.sent.incrementAndGet();
        stats.bytesSent.addAndGet(m.length);
      }
    } catch (Exception e) {
      stats.sendFailures.incrementAndGet();
      LOG.debug("replication: batch not sent: {}", e.toString());
    }
  }

  /**
   * This replica's use of its budgets, when it changed since the last sent, the view changed, or a
   * third of {@code staleMillis} passed (so a peer that missed one still converges).
   */
  private List<byte[]> budgetMessages(long now, boolean whole, long[] oversize) {
    if (budgets.isEmpty()) {
      return List.of();
    }
    List<BudgetUse> use = budgets.ownUse();
    long every = TimeUnit.MILLISECONDS.toNanos(cfg.staleMillis()) / 3;
    if (!whole && use.equals(lastUse) && now - lastUseAt < every) {
      return List.of();
    }
    lastUse = use;
    lastUseAt = now;
    stats.budgetReports.incrementAndGet();
    return WireFormat.encodeBudgets(use, cfg.maxMessageBytes(), oversize);
  }

  /**
   * Whether budgets are enforced with every expected peer's use folded in; a change to "not" is
   * counted ({@link ReplicationStats#budgetsLocal()}).
   */
  private void budgetsShared(View v) {
    int expected = cfg.expectedMembers() > 0 ? cfg.expectedMembers() : v.size();
    boolean shared = v.size() >= expected && budgets.peers() >= expected - 1;
    if (budgetsShared && !shared) {
      stats.budgetsLocal.incrementAndGet();
    }
    budgetsShared = shared;
  }

  private void budgetsAlone() {
    if (budgetsShared) {
      stats.budgetsLocal.incrementAndGet();
    }
    budgetsShared = false;
  }

  /**
   * Whether this replica's budgets count every expected peer's use now (false alone, partitioned or
   * before the peers' first reports: each replica then enforces its own admissions only).
   */
  public boolean budgetsShared() {
    return !budgets.isEmpty() && budgetsShared;
  }

  @Override
  public void receive(Message msg) {
    stats.received.incrementAndGet();
    stats.bytesReceived.addAndGet(msg.getLength());
    WireFormat.Batch batch;
    try {
      batch = WireFormat.decode(msg.getArray(), msg.getOffset(), msg.getLength());
    } catch (WireException e) {
      if (stats.rejected.getAndIncrement() == 0) {
        LOG.warn("replication: message from {} refused: {}", msg.getSrc(), e.getMessage());
      }
      return;
    }
    if (batch.loadsReport() != 0) {
      peers.report(
          String.valueOf(msg.getSrc()),
          batch.loadsReport(),
          batch.loadsLast(),
          batch.loadsDelta(),
          batch.loads());
    }
    for (Update u : batch.updates()) {
      u.applyTo(scheduler);
    }
    if (!batch.budgetUse().isEmpty()) {
      budgets.foldPeer(String.valueOf(msg.getSrc()), batch.budgetUse());
    }
  }

  @Override
  public void viewAccepted(View v) {
    View before = view;
    view = v;
    viewChanged.set(true); // a new member, or one back from a partition, has no report of this one
    List<String> members = v.getMembers().stream().map(String::valueOf).toList();
    peers.retain(members);
    budgets.retainPeers(members);
    scheduler.learnFromShareOf(cfg.latencySplit(members.size()));
    if (v instanceof MergeView merge) {
      stats.merges.incrementAndGet();
      executor.execute(() -> absorbMerge(merge, before));
    }
  }

  /**
   * After a partition heals: fetches and merges a snapshot from each side this replica was cut off
   * from ({@link MergeSides}). Two sides fetching from each other at once can stall both transfers
   * (each requester holds its barrier closed while it reads; a CI run saw two merged pickers deaf
   * to each other for the whole state timeout), so of each pair of sides one fetches at once and
   * the other after the state timeout, when the first transfer is over either way.
   */
  private void absorbMerge(MergeView merge, View before) {
    JChannel ch = channel;
    if (ch == null) {
      return;
    }
    for (MergeSides.Fetch f : MergeSides.fetches(merge, before, ch.getAddress())) {
      if (f.now()) {
        fetchState(f.from(), false);
      } else {
        executor.schedule(
            () -> fetchState(f.from(), false),
            cfg.stateTimeoutMillis() + 500L,
            TimeUnit.MILLISECONDS);
      }
    }
  }

  @Override
  public void getState(OutputStream out) throws Exception {
    Snapshot.of(scheduler, budgets).writeTo(out);
  }

  @Override
  public void setState(InputStream in) throws Exception {
    Snapshot.readFrom(in).absorbInto(scheduler, budgets);
  }

  /** Leaves the cluster and stops the batch thread. */
  @Override
  public void close() {
    scheduler.shareWith(Learning.NONE);
    scheduler.learnFromShareOf(1);
    executor.shutdownNow();
    JChannel ch = channel;
    if (ch != null) {
      ch.close();
    }
    scheduler.inFlight().peerLoads(Map.of());
  }
}
