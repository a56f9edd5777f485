package dev.pointsman.picker.routing;

/** Body → model → pool → endpoint, protocol-free. Thread-safe. */
public interface Routing {

  /** Routes one request whose body has been read. */
  RouteOutcome route(RouteInput input);

  /** The OpenAI {@code GET /v1/models} response body listing what the gateway serves. */
  String modelsJson();
}
