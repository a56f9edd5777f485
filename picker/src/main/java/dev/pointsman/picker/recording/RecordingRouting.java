package dev.pointsman.picker.recording;

import dev.pointsman.extproc.Completion;
import dev.pointsman.picker.routing.ForwardingRouting;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.routing.Routing;
import dev.pointsman.picker.scheduling.InFlightTracker;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Routing that also records every routed request when it ends, however it ends: its arrival (when
 * it was routed), its lengths (the response's usage, else the picker's prompt estimate and 0 output
 * tokens), its prompt's prefix blocks (the hashes the scheduler computed; salted by the writer),
 * model, adapter and tenant. Requests refused by routing are not recorded. The rows are handed to a
 * {@link TrafficRecorder}; nothing here blocks. Thread-safe: the requests between routing and their
 * end are held in a concurrent map by their in-flight ticket (an identity), each removed at its
 * end.
 */
public final class RecordingRouting extends ForwardingRouting {
  /** Longest tenant value recorded; longer ones are cut. */
  static final int MAX_TENANT_CHARS = 128;

  private final TrafficRecorder recorder;
  private final LongSupplier nanoClock;
  private final long startNanos;
  private final String tenantHeader;
  private final Map<InFlightTracker.Ticket, Arrival> live = new ConcurrentHashMap<>();

  /**
   * @param nanoClock a monotonic clock; the recording starts at its value now
   * @param tenantHeader the header naming the tenant (lower-case), or null
   */
  public RecordingRouting(
      Routing delegate, TrafficRecorder recorder, LongSupplier nanoClock, String tenantHeader) {
    super(delegate);
    this.recorder = recorder;
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
    this.tenantHeader = tenantHeader;
  }

  private record Arrival(long ms, int estimatedTokens, String tenant) {}

  @Override
  public RouteOutcome route(RouteInput input) {
    return noted(input, nanoClock.getAsLong(), delegate.route(input));
  }

  /** With flow control the request may be routed later; its arrival is when it came. */
  @Override
  public CompletableFuture<RouteOutcome> submit(RouteInput input) {
    long at = nanoClock.getAsLong();
    return Routing.then(delegate.submit(input), o -> noted(input, at, o));
  }

  private RouteOutcome noted(RouteInput input, long at, RouteOutcome outcome) {
    if (outcome instanceof RouteOutcome.Routed r) {
      String tenant = tenantHeader == null ? null : input.headers().apply(tenantHeader);
      if (tenant != null && tenant.length() > MAX_TENANT_CHARS) {
        tenant = tenant.substring(0, MAX_TENANT_CHARS);
      }
      long ms = Math.max(0, (at - startNanos) / 1_000_000);
      live.put(r.picked().ticket(), new Arrival(ms, input.body().estimatedPromptTokens(), tenant));
    }
    return outcome;
  }

  @Override
  public RouteOutcome.Routed served(RouteOutcome.Routed routed, String endpoint) {
    RouteOutcome.Routed current = delegate.served(routed, endpoint);
    if (current != routed) {
      Arrival a = live.remove(routed.picked().ticket());
      if (a != null) {
        live.put(current.picked().ticket(), a);
      }
    }
    return current;
  }

  @Override
  public void completed(RouteOutcome.Routed routed, Completion completion) {
    delegate.completed(routed, completion);
    Arrival a = live.remove(routed.picked().ticket());
    if (a == null) {
      return;
    }
    int input =
        completion.usage().promptTokens() >= 0
            ? completion.usage().promptTokens()
            : a.estimatedTokens();
    int output = Math.max(0, completion.usage().completionTokens());
    var picked = routed.picked();
    long[] blocks =
        picked.explanation() == null ? new long[0] : picked.explanation().promptBlocks();
    recorder.offer(
        new TraceRow(
            a.ms(),
            Math.max(0, input),
            output,
            blocks,
            routed.model(),
            picked.ticket().adapter(),
            a.tenant()));
  }

  /** Requests routed and not yet ended (for tests: it returns to 0 when they all end). */
  int live() {
    return live.size();
  }
}
