package dev.pointsman.extproc;

import com.google.protobuf.ByteString;
import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.inference.request.BodyAccumulator;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.inference.request.PathDecision;
import dev.pointsman.inference.request.RequestParser;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The request side of one stream: read the headers (a path off the allow-list is refused at once,
 * the model listing answered at once), accumulate the body, decide at its end, and send the reply.
 * In FULL_DUPLEX_STREAMED mode the headers reply waits for the decision and the body is echoed
 * after it; in BUFFERED mode the headers are continued at once and the decision rides on the body
 * reply.
 */
final class RequestPhase {
  private final Consumer<ProcessingResponse> send;
  private final ExtProcContext context;
  private final List<ByteString> chunks = new ArrayList<>();
  private BodyMode mode;
  private RequestHead head;
  private BodyAccumulator body;
  private BodyFeed feed;
  private long bytes;
  private boolean bodyEnded;
  private boolean answered;
  private Verdict.Forward forward;
  private long decidedAtNanos;
  private boolean ended;
  private Verdict.Deferred deferred;
  private ParsedRequest deferredBody;
  private boolean deferredEndOfStream;
  private boolean trailersOwed;

  RequestPhase(Consumer<ProcessingResponse> send, ExtProcContext context) {
    this.send = send;
    this.context = context;
    this.mode = context.settings().requestBodyMode();
  }

  void adoptMode(BodyMode m) {
    if (head == null && (m == BodyMode.FULL_DUPLEX_STREAMED || m == BodyMode.BUFFERED)) {
      mode = m;
    }
  }

  void onHeaders(HttpHeaders headers, Metadata metadata) {
    if (head != null) {
      return;
    }
    head = RequestHead.from(headers, metadata);
    switch (context.settings().paths().decideStrict(head.method(), head.path())) {
      case PathDecision.Refused r -> throw new Rejection(r.error(), r.reason(), 0);
      case PathDecision.ModelList l -> answer(context.handler().modelsJson(), l.head());
      case PathDecision.ModelRetrieve m -> retrieve(m);
      case PathDecision.Routed r -> startBody(headers.getEndOfStream());
    }
  }

  private void startBody(boolean noBody) {
    if (noBody) {
      throw new Rejection(
          new OpenAiError(
              400,
              "request body required: " + head.method() + " " + head.path() + " had none",
              "invalid_request_error",
              "missing_body"),
          "missing_body",
          0);
    }
    RequestParser.checkContentType(head.contentType());
    body = context.parser().start(head.path()).expectLength(head.contentLength());
    feed = new BodyFeed(body);
    if (mode == BodyMode.BUFFERED) {
      send.accept(Responses.continueRequestHeaders());
    }
  }

  private void retrieve(PathDecision.ModelRetrieve m) {
    String json;
    try {
      json = context.handler().modelJson(m.id());
    } catch (RequestRejectedException e) {
      if (!m.head()) {
        throw e;
      }
      context.events().onRejected(e.reason().label(), e.error().httpStatus());
      send.accept(Responses.errorWithoutBody(e.error()));
      answered = true; // HEAD: the 404's status and headers, no body
      return;
    }
    answer(json, m.head());
  }

  /** The model listing, answered here whether or not a body follows (it is never read). */
  private void answer(String json, boolean headOnly) {
    send.accept(Responses.ok(json, headOnly));
    answered = true;
  }

  void onBody(HttpBody message) {
    if (head == null || body == null || bodyEnded) {
      return; // out of order, or Envoy's duplicate end of stream: ignore
    }
    ByteString data = message.getBody();
    bytes += data.size();
    long max = context.settings().maxBodyBytes();
    if (bytes > max) {
      throw new Rejection(
          new OpenAiError(
              413,
              "request body exceeds " + max + " bytes",
              "invalid_request_error",
              "body_too_large"),
          "too_large",
          0);
    }
    feed.feed(data);
    chunks.add(data);
    if (message.getEndOfStream()) {
      bodyEnded = true;
      decideAndForward(true);
    } else if (mode == BodyMode.BUFFERED) {
      send.accept(
          ProcessingResponse.newBuilder()
              .setRequestBody(BodyResponse.getDefaultInstance())
              .build());
    }
  }

  void onTrailers() {
    if (head != null && body != null && !bodyEnded) {
      bodyEnded = true; // a body ended by trailers
      decideAndForward(false);
    }
    if (deferred != null) {
      trailersOwed = true; // the trailers reply follows the held headers reply and the body
      return;
    }
    send.accept(Responses.requestTrailers());
  }

  private void decideAndForward(boolean endOfStream) {
    ParsedRequest parsed = body.finish();
    Verdict verdict = context.handler().decide(head, parsed);
    if (verdict instanceof Verdict.Deferred d) {
      deferred = d;
      deferredBody = parsed;
      deferredEndOfStream = endOfStream;
      return;
    }
    apply(verdict, parsed, endOfStream);
  }

  /** The verdict the request waits for, or null: the stream subscribes to it. */
  Verdict.Deferred awaiting() {
    return deferred;
  }

  /**
   * The awaited verdict arrived: sends what the decision would have sent, then the trailers reply
   * if one is owed. Call serialized with the stream's messages.
   */
  void resume(Verdict verdict) {
    if (deferred == null) {
      return;
    }
    deferred = null;
    ParsedRequest parsed = deferredBody;
    deferredBody = null;
    apply(verdict, parsed, deferredEndOfStream);
    if (trailersOwed) {
      trailersOwed = false;
      send.accept(Responses.requestTrailers());
    }
  }

  /** The stream ended while the request waited: it stops waiting. */
  void abandon() {
    Verdict.Deferred d = deferred;
    deferred = null;
    deferredBody = null;
    if (d != null) {
      d.abandon().run();
    }
  }

  private void apply(Verdict verdict, ParsedRequest parsed, boolean endOfStream) {
    decidedAtNanos = context.clock().getAsLong();
    switch (verdict) {
      case Verdict.Deferred d ->
          throw new IllegalStateException("a deferred verdict completed with another");
      case Verdict.Reject r ->
          throw new Rejection(r.error(), r.reason(), r.retryAfterSeconds(), r.headers());
      case Verdict.Forward f -> {
        forward = f;
        ByteString original = ByteString.copyFrom(chunks);
        chunks.clear();
        ByteString all = ModelRewrite.apply(original, parsed, f.model());
        boolean rewritten = all != original;
        Map<String, String> headers = f.setHeaders();
        if (rewritten && head.contentLength() >= 0) {
          headers = new LinkedHashMap<>(headers);
          headers.put("content-length", Integer.toString(all.size()));
        }
        if (mode == BodyMode.BUFFERED) {
          send.accept(
              Responses.routeOnBufferedBody(
                  f.destination(), f.fallbacks(), headers, rewritten ? all : null));
        } else {
          send.accept(Responses.routeOnHeaders(f.destination(), f.fallbacks(), headers));
          echo(all, endOfStream);
        }
      }
    }
  }

  private void echo(ByteString all, boolean endOfStream) {
    int max = context.settings().echoChunkBytes();
    int size = all.size();
    if (size == 0) {
      send.accept(Responses.requestBodyChunk(ByteString.EMPTY, endOfStream));
      return;
    }
    for (int at = 0; at < size; at += max) {
      int end = Math.min(size, at + max);
      send.accept(Responses.requestBodyChunk(all.substring(at, end), endOfStream && end == size));
    }
  }

  boolean answered() {
    return answered;
  }

  boolean forwarded() {
    return forward != null;
  }

  long decidedAtNanos() {
    return decidedAtNanos;
  }

  /** Tells a forwarded request's listener its response headers; returns the headers to set. */
  Map<String, String> responseHeaders(int status, String servedBy) {
    if (forward != null && !ended) {
      return forward.listener().onResponseHeaders(status, servedBy);
    }
    return Map.of();
  }

  /** Tells a forwarded request's listener that its response produced a first byte at {@code at}. */
  void firstByte(long at) {
    if (forward != null && !ended) {
      forward.listener().onFirstByte(at - decidedAtNanos);
    }
  }

  /**
   * Reports the end of a forwarded request to its listener, once, and frees the parser. Safe to
   * call on every terminal path.
   */
  void end(Completion completion) {
    if (body != null) {
      body.close();
      body = null;
      feed = null;
    }
    if (forward != null && !ended) {
      ended = true;
      forward.listener().onEnd(completion);
    }
  }

  /** The stream ended before any response arrived. */
  void endWithoutResponse(Completion.End how) {
    long now = context.clock().getAsLong();
    end(new Completion(0, -1, now - decidedAtNanos, Usage.NONE, null, how));
  }
}
