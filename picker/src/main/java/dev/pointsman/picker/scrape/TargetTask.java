package dev.pointsman.picker.scrape;

import dev.pointsman.inference.model.DiscoveredModels;
import dev.pointsman.picker.scheduling.AdapterListing;
import java.net.URI;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic scrape of one target. At most one scrape of a target is in flight: a tick that finds
 * the previous one running is skipped, so a slow endpoint never piles up requests. Results of a
 * stopped task are dropped.
 *
 * <p>Every {@link ScraperConfig#ticksPerListing()} ticks it also reads the target's model listing
 * (at most one read in flight), and each scrape reported carries the last listing read. A listing
 * not refreshed for {@link #LISTING_LIFETIME_READS} read intervals is reported as unknown, so an
 * endpoint that stops answering it is no longer held to what it once listed.
 *
 * <p>Scrapes and listings each use their own persistent connection ({@link HttpConnection}).
 */
final class TargetTask {

  private static final Logger log = LoggerFactory.getLogger(TargetTask.class);
  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  private final ScrapeTarget target;
  private final ScrapeContext ctx;
  private final MetricsMapper mapper;
  private final HttpConnection metrics;
  private final URI metricsUri;
  private final AtomicBoolean inFlight = new AtomicBoolean();
  private volatile boolean stopped;
  private volatile ScheduledFuture<?> schedule;
  private volatile CompletableFuture<?> call;

  /** Read intervals a listing stays valid without a successful re-read. */
  static final int LISTING_LIFETIME_READS = 3;

  private final HttpConnection listing;
  private final long ticksPerListing;
  private final long listingLifetimeNanos;
  private final long timeoutNanos;
  private final int strideOffset;
  private final AtomicLong ticks = new AtomicLong();
  private final AtomicBoolean listingInFlight = new AtomicBoolean();
  private volatile CompletableFuture<?> listingCall;
  private volatile AdapterListing listed = AdapterListing.UNKNOWN;
  private volatile String listingResult = "unknown";
  private volatile long listedAtNanos;
  private final Warnings warnings;

  TargetTask(ScrapeTarget target, ScrapeContext ctx) {
    this.target = target;
    this.ctx = ctx;
    this.mapper = target.engine().newMapper();
    this.warnings = new Warnings(target);
    ScraperConfig config = ctx.config();
    this.metricsUri = URI.create(target.metricsUrl(ctx.http().scheme(), config.path()));
    this.metrics =
        ctx.http()
            .connection(
                target.host(),
                target.metricsPort(),
                target.metricsPath(config.path()),
                "text/plain;version=0.0.4");
    this.ticksPerListing = config.ticksPerListing();
    this.listing =
        ticksPerListing == 0
            ? null
            : ctx.http()
                .connection(target.host(), target.port(), config.modelsPath(), "application/json");
    this.timeoutNanos = config.timeout().toNanos();
    this.strideOffset = target.address().hashCode() & 0xffff;
    this.listingLifetimeNanos =
        LISTING_LIFETIME_READS * ticksPerListing * config.interval().toNanos()
            + config.timeout().toNanos();
  }

  ScrapeTarget target() {
    return target;
  }

  void start(long initialDelayNanos, long intervalNanos) {
    schedule =
        ctx.executor()
            .scheduleAtFixedRate(
                this::tickQuietly, initialDelayNanos, intervalNanos, TimeUnit.NANOSECONDS);
  }

  void stop() {
    stopped = true;
    ScheduledFuture<?> s = schedule;
    if (s != null) {
      s.cancel(false);
    }
    CompletableFuture<?> c = call;
    if (c != null) {
      c.cancel(true);
    }
    CompletableFuture<?> l = listingCall;
    if (l != null) {
      l.cancel(true);
    }
    metrics.close();
    if (listing != null) {
      listing.close();
    }
  }

  private void tickQuietly() {
    try {
      tick();
    } catch (RuntimeException e) {
      // An exception would silently cancel the periodic schedule.
      log.warn("scrape tick failed for {}", target.address(), e);
    }
  }

  /** Starts one scrape unless one is in flight; the future completes when it has been handled. */
  CompletableFuture<Void> tick() {
    if (stopped) {
      return DONE;
    }
    long tick = ticks.getAndIncrement();
    if (ticksPerListing > 0 && tick % ticksPerListing == 0) {
      list();
    }
    ScrapeBudget budget = ctx.budget();
    budget.update(ctx.nanoTime().getAsLong());
    int stride = budget.stride();
    if (stride > 1 && (tick + strideOffset) % stride != 0) {
      ctx.observer().skipped("budget");
      return DONE;
    }
    if (!inFlight.compareAndSet(false, true)) {
      ctx.observer().skipped("in_flight");
      return DONE;
    }
    if (!ctx.permits().tryAcquire()) {
      inFlight.set(false);
      ctx.observer().skipped("concurrency");
      return DONE;
    }
    return send(metrics, c -> call = c, this::finish);
  }

  /** Handles a finished call: its answer or error, and when it started. */
  private interface Outcome {
    void handle(HttpBody response, Throwable error, long startNanos);
  }

  /**
   * Sends a GET on {@code connection}, failing once the timeout passes; {@code track} holds the
   * call so that {@link #stop()} can cancel it. The future completes after {@code outcome} ran.
   */
  private CompletableFuture<Void> send(
      HttpConnection connection, Consumer<CompletableFuture<?>> track, Outcome outcome) {
    long start = ctx.nanoTime().getAsLong();
    CompletableFuture<Void> handled = new CompletableFuture<>();
    try {
      CompletableFuture<HttpBody> c = connection.get(timeoutNanos);
      track.accept(c);
      c.whenComplete(
          (response, error) -> {
            outcome.handle(response, error, start);
            handled.complete(null);
          });
    } catch (RuntimeException e) {
      outcome.handle(null, e, start);
      handled.complete(null);
    }
    return handled;
  }

  private void finish(HttpBody response, Throwable error, long start) {
    Runnable counted = null;
    try {
      if (!stopped) {
        counted = handle(response, error, start);
      }
    } catch (RuntimeException e) {
      log.warn("scrape listener failed for {}", target.address(), e);
    } finally {
      call = null;
      ctx.permits().release();
      inFlight.set(false);
    }
    if (counted != null) {
      counted.run(); // once the target may be scraped again: a scrape counted is a scrape done
    }
  }

  /**
   * Tells the listener what the scrape found; returns its count for the observer, which {@link
   * #finish} runs after the target is free for its next scrape.
   */
  private Runnable handle(HttpBody response, Throwable error, long start) {
    if (error != null) {
      String reason = Failures.reason(error);
      if (reason.equals("tls")) {
        warnings.tls(metricsUri, error);
      }
      return fail(reason, start);
    } else if (response.status() != 200) {
      return fail("http_" + response.status(), start);
    } else if (Failures.notPrometheusText(response)) {
      warnings.notPrometheusText(metricsUri);
      return fail(Failures.NOT_PROMETHEUS_TEXT, start);
    } else {
      ParseResult parsed = target.engine().parser().parse(response.bytes(), 0, response.length());
      Mapping mapping = mapper.map(parsed.samples(), start);
      if (mapping.unusable()) {
        return fail("parse", start);
      }
      warnings.missing(mapping.missing());
      warnings.notServing(mapping.notServing());
      warnings.tlsWorks();
      boolean fresh = listingFresh(start);
      AdapterListing l = fresh ? listed : AdapterListing.UNKNOWN;
      ScrapeReport report =
          new ScrapeReport(
              mapping.missing(),
              mapping.notServing(),
              fresh ? listingResult : "unknown",
              mapping.restarted());
      ctx.listener().onSuccess(target.address(), mapping.metrics().withListing(l), report);
      long duration = ctx.nanoTime().getAsLong() - start;
      int skippedLines = parsed.skippedLines();
      return () ->
          ctx.observer().scraped(target.engine(), duration, skippedLines, mapping.missing());
    }
  }

  /** Whether the last listing read still holds for a scrape started at {@code now}. */
  private boolean listingFresh(long now) {
    return now - listedAtNanos <= listingLifetimeNanos;
  }

  /**
   * Reads the model listing unless listings are off or one is in flight; the future completes when
   * the result was handled.
   */
  CompletableFuture<Void> list() {
    if (stopped || listing == null || !listingInFlight.compareAndSet(false, true)) {
      return DONE;
    }
    return send(listing, c -> listingCall = c, this::listed);
  }

  private void listed(HttpBody response, Throwable error, long start) {
    try {
      if (stopped) {
        return;
      }
      String result;
      if (error != null) {
        result = Failures.reason(error);
      } else if (response.status() != 200) {
        result = "http_" + response.status();
      } else {
        try {
          ListingRead read =
              ListingRead.of(
                  target.engine(),
                  DiscoveredModels.fromModelsList(
                      Arrays.copyOf(response.bytes(), response.length())));
          result = read.result();
          if (result.equals(ListingRead.NO_LINEAGE)) {
            warnings.noLineage();
          }
          listedAtNanos = start; // before the listing: a reader that sees it sees its time
          listingResult = result;
          listed = read.listing();
        } catch (IllegalArgumentException e) {
          result = "parse";
        }
      }
      ctx.observer().listed(target.engine(), result);
    } catch (RuntimeException e) {
      log.warn("model listing handling failed for {}", target.address(), e);
    } finally {
      listingCall = null;
      listingInFlight.set(false);
    }
  }

  private Runnable fail(String reason, long start) {
    ctx.listener().onFailure(target.address(), reason);
    long duration = ctx.nanoTime().getAsLong() - start;
    return () -> ctx.observer().failed(target.engine(), reason, duration);
  }
}
