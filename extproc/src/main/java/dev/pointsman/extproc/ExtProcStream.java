package dev.pointsman.extproc;

import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.error.RequestRejectedException;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode.BodySendMode;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ext_proc stream, i.e. one HTTP request through Envoy. Dispatches each message to the request
 * or response phase and maps failures to OpenAI-style immediate responses, so that nothing escapes
 * as a gRPC UNKNOWN. gRPC delivers one call's messages serially; a deferred verdict ({@link
 * Verdict.Deferred}) arrives from another thread. Every entry point holds this stream's monitor, so
 * replies are serialized (a {@code StreamObserver} is not thread-safe) and a verdict that arrives
 * after the stream ended sends nothing.
 */
final class ExtProcStream implements StreamObserver<ProcessingRequest> {
  private static final Logger log = LoggerFactory.getLogger(ExtProcStream.class);

  private final StreamObserver<ProcessingResponse> out;
  private final ExtProcContext context;
  private final InboundWindow window;
  private final RequestPhase request;
  private ResponsePhase response;
  private BodyMode responseMode;
  private boolean closed;

  ExtProcStream(
      StreamObserver<ProcessingResponse> out, ExtProcContext context, InboundWindow window) {
    this.out = out;
    this.context = context;
    this.window = window;
    this.responseMode = context.settings().responseBodyMode();
    this.request = new RequestPhase(out::onNext, context);
  }

  @Override
  public synchronized void onNext(ProcessingRequest message) {
    window.received();
    if (closed) {
      return;
    }
    guarded(
        message.getRequestCase().name(),
        () -> {
          adoptProtocolConfig(message);
          dispatch(message);
          awaitDeferred();
        });
  }

  /** Runs {@code step}, answering any failure with an immediate response. */
  private void guarded(String what, Runnable step) {
    try {
      step.run();
    } catch (RequestRejectedException e) {
      reject(e.error(), e.reason().label(), 0, java.util.Map.of());
    } catch (Rejection e) {
      reject(e.error(), e.reason(), e.retryAfterSeconds(), e.headers());
    } catch (RuntimeException e) {
      log.warn("ext_proc stream failed on {}: {}", what, e.toString(), e);
      reject(
          new OpenAiError(
              500, "internal error in the ext_proc service", "server_error", "internal"),
          "internal",
          0,
          java.util.Map.of());
    }
  }

  /** Subscribes to a verdict the handler deferred; it may complete at once, on this thread. */
  private void awaitDeferred() {
    Verdict.Deferred d = request.awaiting();
    if (d != null) {
      d.verdict().whenComplete(this::resume);
    }
  }

  /** A deferred verdict arrived (from any thread). */
  private synchronized void resume(Verdict verdict, Throwable failure) {
    if (closed || request.awaiting() == null) {
      if (verdict instanceof Verdict.Forward f) {
        // nobody to send it to: the request never left, its hold is released now
        f.listener().onEnd(new Completion(0, -1, 0, Usage.NONE, null, Completion.End.CANCELLED));
      }
      return;
    }
    guarded(
        "deferred verdict",
        () -> {
          if (failure != null) {
            throw new IllegalStateException("deferred verdict failed", failure);
          }
          request.resume(verdict);
        });
  }

  private void dispatch(ProcessingRequest message) {
    switch (message.getRequestCase()) {
      case REQUEST_HEADERS ->
          request.onHeaders(message.getRequestHeaders(), message.getMetadataContext());
      case REQUEST_BODY -> request.onBody(message.getRequestBody());
      case REQUEST_TRAILERS -> request.onTrailers();
      case RESPONSE_HEADERS ->
          response().onHeaders(message.getResponseHeaders(), message.getMetadataContext());
      case RESPONSE_BODY -> response().onBody(message.getResponseBody());
      case RESPONSE_TRAILERS -> response().onTrailers();
      case REQUEST_NOT_SET -> {}
    }
    if (request.answered()) {
      finish("completed");
      out.onCompleted();
    }
  }

  private ResponsePhase response() {
    if (response == null) {
      response = new ResponsePhase(out::onNext, request, responseMode, context.clock());
    }
    return response;
  }

  /** Envoy may tell the processor the body modes in force; they win over our settings. */
  private void adoptProtocolConfig(ProcessingRequest message) {
    if (!message.hasProtocolConfig()) {
      return;
    }
    var config = message.getProtocolConfig();
    request.adoptMode(mode(config.getRequestBodyMode()));
    BodyMode m = mode(config.getResponseBodyMode());
    if (response == null && m != null) {
      responseMode = m;
    }
  }

  private static BodyMode mode(BodySendMode m) {
    return switch (m) {
      case FULL_DUPLEX_STREAMED -> BodyMode.FULL_DUPLEX_STREAMED;
      case BUFFERED, BUFFERED_PARTIAL -> BodyMode.BUFFERED;
      case NONE -> BodyMode.NONE;
      default -> null;
    };
  }

  private void reject(
      OpenAiError error, String reason, int retryAfter, java.util.Map<String, String> headers) {
    context.events().onRejected(reason, error.httpStatus());
    out.onNext(Responses.error(error, retryAfter, headers));
    finish("completed");
    out.onCompleted();
  }

  @Override
  public synchronized void onError(Throwable t) {
    Status status = Status.fromThrowable(t);
    boolean cancelled = status.getCode() == Status.Code.CANCELLED;
    if (!cancelled) {
      log.debug("ext_proc stream ended with {}", status);
    }
    end(cancelled ? Completion.End.CANCELLED : Completion.End.ERROR);
  }

  @Override
  public synchronized void onCompleted() {
    end(Completion.End.COMPLETED);
    out.onCompleted();
  }

  private void end(Completion.End how) {
    if (closed) {
      return;
    }
    if (response != null) {
      response.complete(how);
    } else {
      request.endWithoutResponse(how);
    }
    finish(how.label());
  }

  private void finish(String how) {
    if (!closed) {
      closed = true;
      request.abandon();
      request.endWithoutResponse(Completion.End.ERROR);
      context.events().onStreamEnd(how);
    }
  }
}
