package dev.pointsman.extproc;

import dev.pointsman.inference.request.ParsedRequest;

/**
 * What a processor does with a request once its body has been read: the one decision that differs
 * between the endpoint picker and the body router. Everything else about the ext_proc protocol is
 * shared ({@link ExternalProcessorService}). Implementations must be thread-safe and non-blocking.
 */
public interface ExtProcHandler {

  /**
   * Decides what to do with one request.
   *
   * @param head the request's headers and Envoy metadata
   * @param body what the body says
   * @return forward (with header mutations) or reject, or {@link Verdict.Deferred} to decide later
   *     from another thread while the stream waits
   */
  Verdict decide(RequestHead head, ParsedRequest body);

  /**
   * The OpenAI {@code GET /v1/models} body (models and their aliases), answered without a model
   * server.
   */
  String modelsJson();

  /**
   * The OpenAI {@code GET /v1/models/{id}} body (one model object), answered without a model
   * server.
   *
   * @throws dev.pointsman.inference.error.RequestRejectedException 404 {@code model_not_found} for
   *     an id that is neither a served model nor an alias
   */
  String modelJson(String id);
}
