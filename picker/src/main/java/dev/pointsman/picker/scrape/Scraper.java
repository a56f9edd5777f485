package dev.pointsman.picker.scrape;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Scrapes each target's {@code /metrics} every interval and reports to a {@link ScrapeListener}.
 * Each target's model listing ({@code /v1/models}: the LoRA adapters registered there) is read on a
 * slower schedule and reported with its scrapes.
 *
 * <p>Each endpoint has a stable phase within the interval (from its address), so scrapes of a fleet
 * spread over the interval instead of bursting together. A global semaphore bounds scrapes in
 * flight; a target whose previous scrape is still running skips its tick. When the fleet is too
 * large for the scraper's CPU budget ({@link ScrapeBudget}), every target skips the same share of
 * its ticks, so the interval stretches evenly (up to the datastore's staleness bound) instead of
 * some endpoints going unscraped. Targets can be replaced at any time. The executor and HTTP client
 * are injected and not shut down by {@link #close()}; scheduling on the client's own event loop
 * ({@link ScrapeHttp#executor()}) saves a thread hop per scrape.
 *
 * <p>Thread-safe.
 */
public final class Scraper implements AutoCloseable {

  private final ScrapeContext ctx;
  private final Map<String, TargetTask> tasks = new ConcurrentHashMap<>();
  private boolean closed;

  public Scraper(
      ScraperConfig config,
      ScrapeHttp http,
      ScheduledExecutorService executor,
      LongSupplier nanoTime,
      ScrapeListener listener,
      ScrapeObserver observer) {
    this(config, http, executor, nanoTime, listener, observer, http::cpuNanos);
  }

  /** As above, with the CPU time the budget reads ({@link ScrapeBudget}) given. */
  Scraper(
      ScraperConfig config,
      ScrapeHttp http,
      ScheduledExecutorService executor,
      LongSupplier nanoTime,
      ScrapeListener listener,
      ScrapeObserver observer,
      LongSupplier cpuNanos) {
    this.ctx =
        new ScrapeContext(
            Objects.requireNonNull(config, "config"),
            Objects.requireNonNull(http, "http"),
            Objects.requireNonNull(executor, "executor"),
            Objects.requireNonNull(nanoTime, "nanoTime"),
            Objects.requireNonNull(listener, "listener"),
            Objects.requireNonNull(observer, "observer"),
            new Semaphore(config.maxConcurrent()),
            new ScrapeBudget(
                config.cpuBudgetCores() > 0 ? config.cpuBudgetCores() : Double.POSITIVE_INFINITY,
                config.interval(),
                config.maxStretch(),
                cpuNanos));
  }

  /**
   * Replaces the targets. Unchanged targets keep their schedule and counter state; removed ones
   * stop at once (an in-flight scrape is cancelled and not reported); a changed engine restarts.
   *
   * @throws IllegalArgumentException when an address appears twice
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized void setTargets(Collection<ScrapeTarget> targets) {
    if (closed) {
      throw new IllegalStateException("scraper is closed");
    }
    Map<String, ScrapeTarget> wanted = new HashMap<>();
    for (ScrapeTarget t : targets) {
      if (wanted.put(t.address(), t) != null) {
        throw new IllegalArgumentException(
            "scrape targets: duplicate address '" + t.address() + "' (expected each once)");
      }
    }
    tasks
        .values()
        .removeIf(
            task -> {
              boolean gone = !task.target().equals(wanted.get(task.target().address()));
              if (gone) {
                task.stop();
              }
              return gone;
            });
    long interval = ctx.config().interval().toNanos();
    long now = ctx.nanoTime().getAsLong();
    for (ScrapeTarget t : wanted.values()) {
      if (!tasks.containsKey(t.address())) {
        TargetTask task = new TargetTask(t, ctx);
        tasks.put(t.address(), task);
        task.start(Math.floorMod(phase(t.address(), interval) - now, interval), interval);
      }
    }
  }

  /** The current targets. */
  public Set<ScrapeTarget> targets() {
    return tasks.values().stream().map(TargetTask::target).collect(Collectors.toUnmodifiableSet());
  }

  /**
   * Scrapes one target now (outside its schedule, skipped like a tick when its previous scrape is
   * in flight); completes when the result was reported. Completes at once for an unknown address.
   */
  public CompletableFuture<Void> scrapeNow(String address) {
    TargetTask task = tasks.get(address);
    return task == null ? CompletableFuture.completedFuture(null) : task.tick();
  }

  /** Reads one target's model listing now; completes when the result was handled. */
  CompletableFuture<Void> listNow(String address) {
    TargetTask task = tasks.get(address);
    return task == null ? CompletableFuture.completedFuture(null) : task.list();
  }

  /** Stops every schedule and cancels scrapes in flight; nothing is reported afterwards. */
  @Override
  public synchronized void close() {
    closed = true;
    tasks.values().forEach(TargetTask::stop);
    tasks.clear();
  }

  /** A stable offset within the interval, spreading endpoints evenly by address hash. */
  static long phase(String address, long intervalNanos) {
    long h = address.hashCode() * 0x9E3779B97F4A7C15L;
    return Math.floorMod(h ^ (h >>> 31), intervalNanos);
  }
}
