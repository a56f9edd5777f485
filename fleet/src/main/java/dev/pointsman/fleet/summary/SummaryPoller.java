package dev.pointsman.fleet.summary;

import dev.pointsman.fleet.health.ClusterHealth;
import dev.pointsman.picker.summary.ClusterSummary;
import dev.pointsman.picker.summary.SummaryProtocol;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one cluster's summary every interval, over its channel (mutual TLS), and tells the
 * cluster's health what came of it. One read is in flight at a time; a read that takes longer than
 * the interval delays the next. Logs a failure at WARN when the cluster was fine until then, and a
 * recovery at INFO; the failures in between at DEBUG.
 *
 * <p>Shared mutable state, named: the latest accepted summary, behind an atomic reference with this
 * one writer.
 */
public final class SummaryPoller implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SummaryPoller.class);

  private final String cluster;
  private final ManagedChannel channel;
  private final ClusterHealth health;
  private final LongSupplier nanoClock;
  private final long timeoutMillis;
  private final AtomicReference<Received> latest = new AtomicReference<>();
  private final AtomicBoolean busy = new AtomicBoolean();
  private final SummaryProtocol.SummaryRequest request;
  private volatile boolean failing;
  private volatile boolean closed;
  private volatile ScheduledFuture<?> schedule;

  public SummaryPoller(
      String cluster,
      ManagedChannel channel,
      ClusterHealth health,
      LongSupplier nanoClock,
      long timeoutMillis,
      String reader) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.health = Objects.requireNonNull(health, "health");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.timeoutMillis = timeoutMillis;
    this.request = new SummaryProtocol.SummaryRequest(reader);
  }

  /** Reads every {@code intervalMillis} on {@code executor}, from now. */
  public void start(ScheduledExecutorService executor, long intervalMillis) {
    schedule =
        executor.scheduleWithFixedDelay(this::poll, 0, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /** Starts one read unless one is in flight. */
  public void poll() {
    if (!busy.compareAndSet(false, true)) {
      return;
    }
    ClientCalls.asyncUnaryCall(
        channel.newCall(
            SummaryProtocol.GET,
            CallOptions.DEFAULT.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS)),
        request,
        new StreamObserver<>() {
          @Override
          public void onNext(ClusterSummary summary) {
            received(summary);
          }

          @Override
          public void onError(Throwable t) {
            failed(t.toString());
          }

          @Override
          public void onCompleted() {
            busy.set(false);
          }
        });
  }

  private void received(ClusterSummary summary) {
    try {
      latest.set(Received.accept(cluster, summary));
    } catch (IllegalArgumentException e) {
      failed(e.getMessage());
      return;
    }
    health.summaryReceived(nanoClock.getAsLong());
    if (failing) {
      failing = false;
      LOG.info("fleet: cluster {} summaries read again", cluster);
    }
  }

  private void failed(String why) {
    busy.set(false);
    if (closed) {
      return; // the channel was shut down under the read
    }
    health.summaryFailed(nanoClock.getAsLong());
    if (!failing) {
      failing = true;
      LOG.warn("fleet: cannot read cluster {}'s summary: {}", cluster, why);
    } else {
      LOG.debug("fleet: cluster {} summary read failed again: {}", cluster, why);
    }
  }

  /** The latest accepted summary, or null before the first. */
  public Received latest() {
    return latest.get();
  }

  public String cluster() {
    return cluster;
  }

  @Override
  public void close() {
    closed = true;
    ScheduledFuture<?> s = schedule;
    if (s != null) {
      s.cancel(false);
    }
    channel.shutdownNow();
  }
}
