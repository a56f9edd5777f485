package dev.pointsman.picker.scrape;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic scrape of one target. At most one scrape of a target is in flight: a tick that finds
 * the previous one running is skipped, so a slow endpoint never piles up requests. Results of a
 * stopped task are dropped.
 */
final class TargetTask {

  private static final Logger log = LoggerFactory.getLogger(TargetTask.class);
  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  private final ScrapeTarget target;
  private final ScrapeContext ctx;
  private final MetricsMapper mapper;
  private final HttpRequest request;
  private final AtomicBoolean inFlight = new AtomicBoolean();
  private volatile boolean stopped;
  private volatile ScheduledFuture<?> schedule;
  private volatile CompletableFuture<?> call;

  TargetTask(ScrapeTarget target, ScrapeContext ctx) {
    this.target = target;
    this.ctx = ctx;
    this.mapper = target.engine().newMapper();
    this.request =
        HttpRequest.newBuilder(URI.create("http://" + target.address() + ctx.config().path()))
            .version(HttpClient.Version.HTTP_1_1)
            .timeout(ctx.config().timeout())
            .header("Accept", "text/plain;version=0.0.4")
            .GET()
            .build();
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
    if (!inFlight.compareAndSet(false, true)) {
      ctx.observer().skipped("in_flight");
      return DONE;
    }
    if (!ctx.permits().tryAcquire()) {
      inFlight.set(false);
      ctx.observer().skipped("concurrency");
      return DONE;
    }
    long start = ctx.nanoTime().getAsLong();
    CompletableFuture<Void> handled = new CompletableFuture<>();
    try {
      CompletableFuture<HttpResponse<byte[]>> c =
          ctx.client().sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
      call = c;
      long timeout = ctx.config().timeout().toNanos();
      ScheduledFuture<?> guard =
          ctx.executor().schedule(() -> c.cancel(true), timeout, TimeUnit.NANOSECONDS);
      c.whenComplete(
          (response, error) -> {
            guard.cancel(false);
            finish(response, error, start);
            handled.complete(null);
          });
    } catch (RuntimeException e) {
      finish(null, e, start);
      handled.complete(null);
    }
    return handled;
  }

  private void finish(HttpResponse<byte[]> response, Throwable error, long start) {
    try {
      if (!stopped) {
        handle(response, error, start);
      }
    } catch (RuntimeException e) {
      log.warn("scrape listener failed for {}", target.address(), e);
    } finally {
      call = null;
      ctx.permits().release();
      inFlight.set(false);
    }
  }

  private void handle(HttpResponse<byte[]> response, Throwable error, long start) {
    if (error != null) {
      fail(Failures.reason(error), start);
    } else if (response.statusCode() != 200) {
      fail("http_" + response.statusCode(), start);
    } else {
      ParseResult parsed = target.engine().parser().parse(response.body());
      Mapping mapping = mapper.map(parsed.samples(), start);
      if (mapping.unusable()) {
        fail("parse", start);
        return;
      }
      ctx.listener().onSuccess(target.address(), mapping.metrics());
      long duration = ctx.nanoTime().getAsLong() - start;
      ctx.observer().scraped(target.engine(), duration, parsed.skippedLines(), mapping.missing());
    }
  }

  private void fail(String reason, long start) {
    ctx.listener().onFailure(target.address(), reason);
    ctx.observer().failed(target.engine(), reason, ctx.nanoTime().getAsLong() - start);
  }
}
