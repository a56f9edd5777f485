package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.Engine;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.RequestResult;
import dev.pointsman.sim.engine.SimRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Drives a fleet's engines in real time from one scheduler thread: every engine call happens on
 * that thread, which wakes at each engine's next event time. Thread-safe: public methods hand work
 * to the scheduler thread.
 */
final class RealTimeDriver implements EngineListener {
  private final ScheduledExecutorService scheduler;
  private final LongSupplier nanoTime;
  private final long originNanos;
  private final List<Engine> engines = new ArrayList<>();
  private final List<Map<Long, RequestSink>> sinks = new ArrayList<>();
  private final List<LatencyHistogram> ttft = new ArrayList<>();
  private final List<LatencyHistogram> e2e = new ArrayList<>();
  private ScheduledFuture<?> wake;
  private double wakeAtMs = Double.POSITIVE_INFINITY;

  RealTimeDriver(ScheduledExecutorService scheduler, LongSupplier nanoTime) {
    this.scheduler = scheduler;
    this.nanoTime = nanoTime;
    this.originNanos = nanoTime.getAsLong();
  }

  /** Adds an engine built by {@code factory} (given the pod index); returns the index. */
  int addPod(java.util.function.IntFunction<Engine> factory) {
    return call(() -> {
          engines.add(factory.apply(engines.size()));
          sinks.add(new HashMap<>());
          ttft.add(new LatencyHistogram(LatencyHistogram.TTFT_BOUNDS));
          e2e.add(new LatencyHistogram(LatencyHistogram.E2E_BOUNDS));
          return engines.size() - 1;
        })
        .join();
  }

  /** This listener, for engines of this driver. */
  EngineListener listener() {
    return this;
  }

  /** Engine time now, in ms since the driver started. */
  double nowMs() {
    return (nanoTime.getAsLong() - originNanos) / 1e6;
  }

  /** Submits {@code r} (arrival already set) after {@code delayMs}, reporting to {@code sink}. */
  void submit(int pod, SimRequest r, double delayMs, RequestSink sink) {
    Runnable task =
        () -> {
          advance();
          try {
            engines.get(pod).submit(r);
            sinks.get(pod).put(r.id(), sink);
          } catch (IllegalArgumentException e) {
            if (engines.get(pod).isUp()) {
              sink.onRejected(e.getMessage());
            } else {
              sink.onLost();
            }
          }
          reschedule();
        };
    if (delayMs > 0) {
      scheduler.schedule(task, (long) (delayMs * 1e6), TimeUnit.NANOSECONDS);
    } else {
      scheduler.execute(task);
    }
  }

  /** Aborts a request (its client went away). */
  void abort(int pod, long id) {
    scheduler.execute(
        () -> {
          advance();
          sinks.get(pod).remove(id);
          engines.get(pod).abort(id);
          reschedule();
        });
  }

  /** Runs {@code task} on the driver thread after bringing every engine up to now. */
  <T> CompletableFuture<T> call(Callable<T> task) {
    CompletableFuture<T> f = new CompletableFuture<>();
    scheduler.execute(
        () -> {
          try {
            advance();
            f.complete(task.call());
          } catch (Exception | Error e) {
            f.completeExceptionally(e);
          }
        });
    return f;
  }

  /** The engine of a pod; only for use inside {@link #call}. */
  Engine engine(int pod) {
    return engines.get(pod);
  }

  /** The TTFT histogram of a pod; only for use inside {@link #call}. */
  LatencyHistogram ttft(int pod) {
    return ttft.get(pod);
  }

  /** The end-to-end latency histogram of a pod; only for use inside {@link #call}. */
  LatencyHistogram e2e(int pod) {
    return e2e.get(pod);
  }

  @Override
  public void onFirstToken(int pod, SimRequest request, double timeMs) {
    ttft.get(pod).observe((timeMs - request.arrivalMs()) / 1000.0);
  }

  @Override
  public void onToken(int pod, SimRequest request, int generated, double timeMs) {
    RequestSink sink = sinks.get(pod).get(request.id());
    if (sink != null) {
      sink.onToken(generated);
    }
  }

  @Override
  public void onFailed(int pod, SimRequest request, double timeMs) {
    RequestSink sink = sinks.get(pod).remove(request.id());
    if (sink != null) {
      sink.onLost();
    }
  }

  @Override
  public void onFinish(RequestResult result) {
    e2e.get(result.pod()).observe((result.finishMs() - result.request().arrivalMs()) / 1000.0);
    RequestSink sink = sinks.get(result.pod()).remove(result.request().id());
    if (sink != null) {
      sink.onFinish(result);
    }
  }

  private void advance() {
    double now = nowMs();
    for (Engine e : engines) {
      e.advanceTo(now);
    }
  }

  private void reschedule() {
    double next = Double.POSITIVE_INFINITY;
    for (Engine e : engines) {
      next = Math.min(next, e.nextEventTime());
    }
    if (next >= wakeAtMs && wake != null && !wake.isDone()) {
      return;
    }
    if (wake != null) {
      wake.cancel(false);
    }
    wakeAtMs = next;
    if (next == Double.POSITIVE_INFINITY) {
      wake = null;
      return;
    }
    long delayNanos = Math.max(0, (long) ((next - nowMs()) * 1e6));
    wake = scheduler.schedule(this::onWake, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void onWake() {
    wakeAtMs = Double.POSITIVE_INFINITY;
    advance();
    reschedule();
  }
}
