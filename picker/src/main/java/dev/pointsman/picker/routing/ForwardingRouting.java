package dev.pointsman.picker.routing;

import dev.pointsman.extproc.Completion;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A routing that wraps another and forwards every call to it: a decorator (the traffic recorder,
 * shadow mode) extends it and overrides only what it adds to. One that notes routed outcomes
 * overrides both {@link #route} and {@link #submit}, the latter through {@link Routing#then}.
 */
public abstract class ForwardingRouting implements Routing {
  protected final Routing delegate;

  protected ForwardingRouting(Routing delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public RouteOutcome route(RouteInput input) {
    return delegate.route(input);
  }

  @Override
  public CompletableFuture<RouteOutcome> submit(RouteInput input) {
    return delegate.submit(input);
  }

  @Override
  public RouteOutcome.Routed served(RouteOutcome.Routed routed, String endpoint) {
    return delegate.served(routed, endpoint);
  }

  @Override
  public void firstByte(RouteOutcome.Routed routed, int status, String servedBy, long ttftNanos) {
    delegate.firstByte(routed, status, servedBy, ttftNanos);
  }

  @Override
  public void completed(RouteOutcome.Routed routed, Completion completion) {
    delegate.completed(routed, completion);
  }

  @Override
  public String modelsJson() {
    return delegate.modelsJson();
  }

  @Override
  public String modelJson(String id) {
    return delegate.modelJson(id);
  }
}
