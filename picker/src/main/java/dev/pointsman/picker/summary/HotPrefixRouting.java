package dev.pointsman.picker.summary;

import dev.pointsman.picker.routing.ForwardingRouting;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.routing.Routing;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/** Notes the prefix of every routed request as hot in the pool it was routed to. */
public final class HotPrefixRouting extends ForwardingRouting {
  private final HotPrefixes hot;

  public HotPrefixRouting(Routing delegate, HotPrefixes hot) {
    super(delegate);
    this.hot = Objects.requireNonNull(hot, "hot");
  }

  @Override
  public RouteOutcome route(RouteInput input) {
    return noted(input, delegate.route(input));
  }

  @Override
  public CompletableFuture<RouteOutcome> submit(RouteInput input) {
    return Routing.then(delegate.submit(input), o -> noted(input, o));
  }

  private RouteOutcome noted(RouteInput input, RouteOutcome outcome) {
    if (outcome instanceof RouteOutcome.Routed r) {
      hot.record(r.pool(), input.body().model(), input.body().prompt());
    }
    return outcome;
  }
}
