package dev.pointsman.picker.summary;

import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the cluster's latest summary ({@link SummaryProtocol#GET}). {@link #refresh()} makes a new
 * one (the picker calls it every {@code summary.intervalMillis}); readers get the latest at once,
 * never a summary in the making.
 *
 * <p>Shared mutable state, named: the latest summary, behind an atomic reference with one writer.
 */
public final class SummaryService implements BindableService {
  private static final Logger LOG = LoggerFactory.getLogger(SummaryService.class);

  private final SummaryBuilder builder;
  private final InstantSource clock;
  private final AtomicReference<ClusterSummary> latest = new AtomicReference<>();

  public SummaryService(SummaryBuilder builder, InstantSource clock) {
    this.builder = Objects.requireNonNull(builder, "builder");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Makes and publishes a new summary. Never throws: a failed refresh keeps the last one. */
  public void refresh() {
    ClusterSummary previous = latest.get();
    long sequence = previous == null ? 1 : previous.sequence() + 1;
    try {
      latest.set(builder.build(sequence, clock.millis()));
    } catch (RuntimeException e) {
      LOG.warn("summary: refresh {} failed, the last one stays ({})", sequence, e.toString());
    }
  }

  /** The summary served now, or null before the first refresh. */
  public ClusterSummary latest() {
    return latest.get();
  }

  @Override
  public ServerServiceDefinition bindService() {
    return ServerServiceDefinition.builder(SummaryProtocol.SERVICE_NAME)
        .addMethod(SummaryProtocol.GET, ServerCalls.asyncUnaryCall(this::get))
        .build();
  }

  private void get(
      SummaryProtocol.SummaryRequest request, StreamObserver<ClusterSummary> response) {
    ClusterSummary summary = latest.get();
    if (summary == null) {
      response.onError(
          Status.UNAVAILABLE.withDescription("no summary yet (expected one soon)").asException());
      return;
    }
    response.onNext(summary);
    response.onCompleted();
  }
}
