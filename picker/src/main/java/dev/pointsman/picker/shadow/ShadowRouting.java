package dev.pointsman.picker.shadow;

import dev.pointsman.extproc.Completion;
import dev.pointsman.picker.routing.ForwardingRouting;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.routing.Routing;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.Explanation;
import dev.pointsman.picker.scheduling.InFlightTracker;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Routing in shadow mode: every request is decided as usual (the protocol layer then sends no
 * destination, so the data plane's own balancer routes it, or the choice a balancer in front named
 * in a request header), and what the proxy reports at the response ({@code envoy.lb} metadata, or
 * the served header a stock Envoy route adds) is compared with the decision: the served endpoint
 * against the pick, the observed time to first byte against the TTFT the picker predicted for that
 * endpoint among its candidates.
 *
 * <p>In-flight accounting follows the endpoint that served: the hold moves to it when it was a
 * candidate of the decision (a fallback keeps the scheduler's own move and what it learns), and is
 * released otherwise. The latency model learns only from requests served where the picker would
 * have sent them (its prediction for another candidate is compared, not learned from), and the
 * prefix index keeps what the decision recorded (the pick holds the prompt), which the served
 * endpoint's next hits do not correct: a known bias of shadow mode, stated in docs/rollout.md.
 *
 * <p>Thread-safe: the requests between routing and their end are held in a concurrent map by their
 * in-flight ticket (an identity), each removed at its end.
 */
public final class ShadowRouting extends ForwardingRouting {
  private final InFlightTracker inFlight;
  private final ShadowStats stats = new ShadowStats();
  private final Map<InFlightTracker.Ticket, Pending> live = new ConcurrentHashMap<>();

  public ShadowRouting(Routing delegate, InFlightTracker inFlight) {
    super(delegate);
    this.inFlight = inFlight;
  }

  /** One request between routing and its end. */
  private record Pending(String pick, Explanation explanation, String served) {}

  @Override
  public RouteOutcome route(RouteInput input) {
    return noted(delegate.route(input));
  }

  @Override
  public CompletableFuture<RouteOutcome> submit(RouteInput input) {
    return Routing.then(delegate.submit(input), this::noted);
  }

  private RouteOutcome noted(RouteOutcome outcome) {
    if (outcome instanceof RouteOutcome.Routed r) {
      stats.decided();
      live.put(r.picked().ticket(), new Pending(r.address(), r.picked().explanation(), null));
    }
    return outcome;
  }

  @Override
  public RouteOutcome.Routed served(RouteOutcome.Routed routed, String endpoint) {
    Pending p = live.remove(routed.picked().ticket());
    if (p == null || endpoint == null) {
      RouteOutcome.Routed current = delegate.served(routed, endpoint);
      if (p != null) {
        live.put(current.picked().ticket(), p);
      }
      return current;
    }
    stats.served(p.pick(), endpoint);
    RouteOutcome.Routed current = follow(routed, endpoint, p.explanation());
    live.put(current.picked().ticket(), new Pending(p.pick(), p.explanation(), endpoint));
    return current;
  }

  /** The request as charged to {@code endpoint}, the one that served it. */
  private RouteOutcome.Routed follow(RouteOutcome.Routed routed, String endpoint, Explanation why) {
    Decision.Picked picked = routed.picked();
    boolean candidate = why != null && why.candidates().contains(endpoint);
    if (endpoint.equals(routed.address()) || picked.fallbackIndex(endpoint) >= 0 || !candidate) {
      return delegate.served(routed, endpoint); // the pick, a fallback moved, or released
    }
    InFlightTracker.Ticket moved = inFlight.transfer(picked.ticket(), endpoint);
    Decision.Picked charged =
        new Decision.Picked(
            picked.primary(), List.of(), moved, why, Decision.Prediction.NONE, List.of());
    return new RouteOutcome.Routed(
        charged, routed.pool(), routed.model(), routed.streamed(), routed.appProtocol());
  }

  @Override
  public void completed(RouteOutcome.Routed routed, Completion completion) {
    delegate.completed(routed, completion);
    Pending p = live.remove(routed.picked().ticket());
    if (p == null) {
      return;
    }
    String served = p.served() != null ? p.served() : completion.servedBy();
    double predicted =
        served == null || p.explanation() == null
            ? Double.NaN
            : p.explanation().predictedTtftSeconds(served);
    double ttft = completion.ttftNanos() / 1e9;
    boolean measured =
        routed.streamed()
            && completion.status() == 200
            && completion.ttftNanos() > 0
            && completion.end() == Completion.End.COMPLETED;
    if (measured && predicted >= 0) {
      stats.predictionError(Math.abs(predicted - ttft) / ttft);
    }
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("pick", p.pick());
    row.put("served", served);
    row.put("predictedTtftSeconds", Double.isNaN(predicted) ? null : predicted);
    row.put("ttftSeconds", measured ? ttft : null);
    row.put("totalSeconds", completion.totalNanos() / 1e9);
    row.put("status", completion.status());
    row.put("promptTokens", completion.usage().promptTokens());
    row.put("completionTokens", completion.usage().completionTokens());
    row.put("end", completion.end().name().toLowerCase(java.util.Locale.ROOT));
    stats.ended(row);
  }

  public ShadowStats stats() {
    return stats;
  }

  /** The {@code /debug/shadow} report. */
  public Map<String, Object> report() {
    return stats.report();
  }

  /** Requests routed and not yet ended. */
  int live() {
    return live.size();
  }
}
