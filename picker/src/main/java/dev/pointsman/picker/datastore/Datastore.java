package dev.pointsman.picker.datastore;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scrape.ScrapeListener;
import dev.pointsman.picker.scrape.ScrapeReport;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The picker's view of its pools: membership and each endpoint's scrape health.
 *
 * <p>Thread-safe. Writers are the scraper (as its {@link ScrapeListener}) and membership updates
 * (config file, later Kubernetes), which are serialized. Each endpoint's health is an immutable
 * value swapped atomically; request threads call {@link #snapshot} without locks and get a cached
 * immutable snapshot, rebuilt in O(endpoints) only when the pool's version moved or the clock
 * crossed an availability or staleness boundary.
 */
public final class Datastore implements ScrapeListener {

  private final Health.Thresholds thresholds;
  private final InFlightTracker tracker;
  private final LongSupplier nanoTime;
  private final Map<String, Health> health = new ConcurrentHashMap<>();
  private final List<MembershipListener> listeners = new CopyOnWriteArrayList<>();
  private final List<CacheLossListener> cacheLossListeners = new CopyOnWriteArrayList<>();
  private final Object membershipLock = new Object();
  private volatile Pools pools = Pools.EMPTY;
  private volatile boolean membershipKnown;

  public Datastore(DatastoreConfig config, InFlightTracker tracker, LongSupplier nanoTime) {
    this.thresholds = Health.Thresholds.of(Objects.requireNonNull(config, "config"));
    this.tracker = Objects.requireNonNull(tracker, "tracker");
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  /** Adds a listener and tells it the current membership at once. */
  public void addMembershipListener(MembershipListener listener) {
    synchronized (membershipLock) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      listener.membershipChanged(pools.membership());
    }
  }

  /** Adds a listener told of engines that lost their caches in place (restart, wake). */
  public void addCacheLossListener(CacheLossListener listener) {
    cacheLossListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Replaces every pool (a config reload). */
  public void setPools(Collection<PoolDefinition> definitions) {
    Map<String, PoolDefinition> byName = new HashMap<>();
    for (PoolDefinition d : definitions) {
      if (byName.put(d.name(), d) != null) {
        throw new IllegalArgumentException("pool '" + d.name() + "' defined twice (expected once)");
      }
    }
    synchronized (membershipLock) {
      apply(byName.values());
    }
  }

  /** Adds a pool or replaces the pool of the same name. */
  public void putPool(PoolDefinition definition) {
    Objects.requireNonNull(definition, "definition");
    synchronized (membershipLock) {
      Map<String, PoolDefinition> byName = current();
      byName.put(definition.name(), definition);
      apply(byName.values());
    }
  }

  /** Removes a pool; returns whether it existed. */
  public boolean removePool(String name) {
    synchronized (membershipLock) {
      Map<String, PoolDefinition> byName = current();
      boolean existed = byName.remove(name) != null;
      apply(byName.values());
      return existed;
    }
  }

  @Override
  public void onSuccess(String address, EndpointMetrics metrics) {
    onSuccess(address, metrics, ScrapeReport.NONE);
  }

  @Override
  public void onSuccess(String address, EndpointMetrics metrics, ScrapeReport report) {
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(report, "report");
    long now = nanoTime.getAsLong();
    // an endpoint's scrapes arrive one at a time: what it said last is still there to compare
    Health before = health.get(address);
    if (health.computeIfPresent(address, (a, h) -> h.success(metrics, now, report)) != null) {
      bump(address);
      tracker.onScrape(address);
      String lost = before == null ? null : cacheLoss(before, report);
      if (lost != null) {
        cacheLossListeners.forEach(l -> l.cacheLost(address, lost));
      }
    }
  }

  /**
   * Whether the engine lost its caches between {@code before} and this scrape's {@code report}:
   * {@code restart} when its counters went backwards, {@code wake} when it slept at its last good
   * scrape and serves now; null otherwise.
   */
  private static String cacheLoss(Health before, ScrapeReport report) {
    if (report.restarted()) {
      return "restart";
    }
    if (before.succeeded() && before.report().sleeping() && report.notServing() == null) {
      return "wake";
    }
    return null;
  }

  @Override
  public void onFailure(String address, String reason) {
    long now = nanoTime.getAsLong();
    boolean[] changed = new boolean[1];
    health.computeIfPresent(
        address,
        (a, h) -> {
          Health next = h.failure(reason);
          changed[0] = h.available(now, thresholds) != next.available(now, thresholds);
          return next;
        });
    if (changed[0]) {
      bump(address);
    }
  }

  /** The pool's current snapshot; an empty one for an unknown pool. Cheap and lock-free. */
  public PoolSnapshot snapshot(String pool) {
    PoolView view = view(pool);
    return view == null ? PoolSnapshot.empty(pool) : view.snapshot();
  }

  /**
   * What the endpoint's last good scrape said besides its metrics (missing signals, not serving,
   * listing lineage); {@link ScrapeReport#NONE} before one or for an unknown address.
   */
  public ScrapeReport report(String address) {
    return health.getOrDefault(address, Health.NEW).report();
  }

  /**
   * The endpoint's scrapes failing since its last success: the latest reason ({@code tls}, {@code
   * connect}, {@code http_404}...) and how many in a row; null when its last scrape succeeded, or
   * before any, or for an unknown address.
   */
  public Failing failing(String address) {
    Health h = health.get(address);
    return h == null || h.failure() == null
        ? null
        : new Failing(h.failure(), h.consecutiveFailures());
  }

  /**
   * Scrapes failing in a row.
   *
   * @param reason the latest one's reason, as counted in {@code pointsman_scrape_errors_total}
   * @param inARow how many since the last success
   */
  public record Failing(String reason, int inARow) {}

  /** Pool names, sorted. */
  public List<String> pools() {
    return pools.byName().keySet().stream().sorted().toList();
  }

  public Optional<PoolDefinition> pool(String name) {
    return Optional.ofNullable(pools.byName().get(name)).map(p -> p.definition);
  }

  /** Endpoints in the pool (0 for an unknown pool). */
  public int endpoints(String pool) {
    return pool(pool).map(p -> p.endpoints().size()).orElse(0);
  }

  /** Available endpoints in the pool. */
  public int available(String pool) {
    PoolView view = view(pool);
    return view == null ? 0 : view.available();
  }

  /** Available endpoints whose metrics are older than {@code staleAfter}. */
  public int stale(String pool) {
    PoolView view = view(pool);
    return view == null ? 0 : view.stale();
  }

  /**
   * Readiness: membership has been set at least once and every endpoint of every pool has had a
   * scrape result (success or failure).
   */
  public boolean ready() {
    if (!membershipKnown) {
      return false;
    }
    for (String address : pools.byAddress().keySet()) {
      if (!health.getOrDefault(address, Health.NEW).attempted()) {
        return false;
      }
    }
    return true;
  }

  private PoolView view(String pool) {
    PoolEntry entry = pools.byName().get(pool);
    if (entry == null) {
      return null;
    }
    long now = nanoTime.getAsLong();
    long version = entry.version.get(); // read before health: the view is at least this new
    PoolView cached = entry.cache;
    if (cached != null && cached.validAt(version, now)) {
      return cached;
    }
    PoolView built = PoolView.build(entry.definition, health, version, now, thresholds);
    entry.cache = built;
    return built;
  }

  private void bump(String address) {
    for (PoolEntry entry : pools.byAddress().getOrDefault(address, List.of())) {
      entry.version.incrementAndGet();
    }
  }

  private Map<String, PoolDefinition> current() {
    Map<String, PoolDefinition> byName = new HashMap<>();
    pools.definitions().forEach(d -> byName.put(d.name(), d));
    return byName;
  }

  private void apply(Collection<PoolDefinition> definitions) {
    Pools next = Pools.of(definitions, pools);
    next.byAddress().keySet().forEach(a -> health.putIfAbsent(a, Health.NEW));
    pools = next;
    health.keySet().retainAll(next.byAddress().keySet());
    membershipKnown = true;
    Membership membership = next.membership();
    tracker.retain(membership.addresses());
    listeners.forEach(l -> l.membershipChanged(membership));
  }
}
