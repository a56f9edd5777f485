package dev.pointsman.picker.routing;

import dev.pointsman.extproc.Completion;
import java.util.concurrent.CompletableFuture;

/** Body → model → pool → endpoint, protocol-free. Thread-safe. */
public interface Routing {

  /** Routes one request whose body has been read. */
  RouteOutcome route(RouteInput input);

  /**
   * Routes one request now or, with flow control, once its pools have room: the future then
   * completes later, from another thread. Cancelling it (the stream went away) takes the request
   * out of the queue; a routed outcome that loses that race is released, never delivered.
   */
  default CompletableFuture<RouteOutcome> submit(RouteInput input) {
    return CompletableFuture.completedFuture(route(input));
  }

  /**
   * For a routing that wraps another: {@code inner}'s outcome passed through {@code after}, with
   * cancellation passed back to {@code inner} (the stream went away: the request leaves the queue),
   * and an outcome that {@code inner} routed in the same instant released rather than lost.
   */
  static CompletableFuture<RouteOutcome> then(
      CompletableFuture<RouteOutcome> inner, java.util.function.UnaryOperator<RouteOutcome> after) {
    CompletableFuture<RouteOutcome> outer = inner.thenApply(after);
    outer.whenComplete(
        (o, e) -> {
          if (outer.isCancelled() && !inner.cancel(false)) {
            inner.thenAccept(
                late -> {
                  if (late instanceof RouteOutcome.Routed r) {
                    r.picked().ticket().release();
                  }
                });
          }
        });
    return outer;
  }

  /**
   * The proxy reported which endpoint served a routed request (at its response headers). Returns
   * the request as charged to that endpoint: itself when the primary served, the pick moved to the
   * fallback that served, or (an endpoint not picked) itself with its hold released.
   */
  default RouteOutcome.Routed served(RouteOutcome.Routed routed, String endpoint) {
    return routed;
  }

  /**
   * A routed request's response produced its first byte, {@code ttftNanos} after the decision: its
   * prefill is over, and a streamed, successful response teaches its time to first token now (as
   * the benchmark does at the first token). {@code servedBy} is the endpoint the proxy reported, or
   * null.
   */
  default void firstByte(RouteOutcome.Routed routed, int status, String servedBy, long ttftNanos) {
    routed.picked().ticket().firstToken();
  }

  /**
   * A routed request ended: releases its in-flight hold and learns its time per output token.
   * Called exactly once per routed request.
   */
  void completed(RouteOutcome.Routed routed, Completion completion);

  /** The OpenAI {@code GET /v1/models} response body listing what the gateway serves. */
  String modelsJson();

  /**
   * The OpenAI {@code GET /v1/models/{id}} response body.
   *
   * @throws dev.pointsman.inference.error.RequestRejectedException 404 for an unknown id
   */
  String modelJson(String id);
}
