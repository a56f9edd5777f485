package dev.pointsman.picker.routing;

import dev.pointsman.extproc.Completion;

/** Body → model → pool → endpoint, protocol-free. Thread-safe. */
public interface Routing {

  /** Routes one request whose body has been read. */
  RouteOutcome route(RouteInput input);

  /**
   * A routed request ended: releases its in-flight hold and learns from its time to first token.
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
