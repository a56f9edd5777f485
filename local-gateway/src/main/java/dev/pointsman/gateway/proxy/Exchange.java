package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.config.HostPort;
import dev.pointsman.gateway.extproc.ExtProcCall;
import dev.pointsman.gateway.extproc.PickerReply;
import dev.pointsman.gateway.http.HeaderList;
import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.request.NormalizedPath;
import dev.pointsman.inference.request.PathNormalizer;
import io.grpc.Status;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP request through the gateway, playing Envoy's part: client → ext_proc (request headers,
 * body chunks as they arrive, trailers) → the picker's mutations and re-routing → model server,
 * with the picker's echoed body as the upstream body → response headers and each body chunk through
 * ext_proc → client as they come back. Failures follow {@code failureModeAllow}. A destination that
 * refuses the connection is replaced by the fleet tier's next fallback, if it named any (never once
 * a connection was made: generation requests are not idempotent). Everything runs on the client
 * channel's event loop (the model-server connection shares it, and gRPC callbacks are handed to
 * it), so no state here needs a lock.
 */
final class Exchange implements ExtProcCall.Listener, UpstreamHandler.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);

  private final ProxyContext gw;
  private final Downstream down;
  private final EventLoop loop;
  private final UpstreamLeg upstream;
  private final ByteLedger requestSent;
  private final ByteLedger responseSent;
  private HeaderList requestHeaders;
  private HeaderList requestTrailers;
  private boolean requestHasBody;
  private boolean downstreamEnded;
  private Router.Route route;
  private ExtProcCall picker;
  private boolean requestAnswered;
  private HeaderList responseHeaders;
  private HeaderList responseTrailers;
  private boolean responseHasBody;
  private boolean upstreamResponseEnded;
  private boolean finished;
  private boolean replyWanted;
  private boolean responseKeepAlive = true;
  private ArrayDeque<HostPort> retryHosts = new ArrayDeque<>();
  private long lastActivity = System.nanoTime();

  /** The pending stream-idle check; cancelled when the exchange ends, which lets it be freed. */
  private ScheduledFuture<?> idleTimer;

  Exchange(ProxyContext gw, Downstream down) {
    this.gw = gw;
    this.down = down;
    this.loop = down.eventLoop();
    this.upstream = new UpstreamLeg(gw.pool(), loop, this);
    this.requestSent = new ByteLedger(gw.config().limits().requestBufferBytes());
    this.responseSent = new ByteLedger(gw.config().limits().responseWindowBytes() + (1L << 20));
  }

  // ---------------------------------------------------------------- client side

  void start(HttpRequest req, String scheme, boolean http2, String clientIp) {
    NormalizedPath path = PathNormalizer.normalize(req.uri());
    String target = path instanceof NormalizedPath.Valid v ? v.target() : req.uri();
    requestHeaders = Headers.request(req, target, scheme, clientIp);
    requestHasBody = Bodies.requestHasBody(req, http2);
    OpenAiError refused = gw.router().refusal(req.method().name(), path);
    if (refused != null) {
      answerLocally(LocalReply.of(refused)); // Envoy's own 400/404: no picker, no model server
      return;
    }
    route = gw.router().match(requestHeaders);
    picker = gw.picker().open(loop, this);
    picker.sendRequestHeaders(requestHeaders, !requestHasBody);
    scheduleIdleCheck(gw.config().timeouts().streamIdle().toNanos());
  }

  void onDownstreamContent(HttpContent c) {
    if (finished) {
      return;
    }
    lastActivity = System.nanoTime();
    boolean last = c instanceof LastHttpContent;
    HeaderList trailers = last ? Bodies.trailers((LastHttpContent) c) : null;
    if (requestHasBody && !downstreamEnded) {
      if (picker != null) {
        sendRequestChunk(c.content(), last, trailers);
      } else {
        upstream.write(Bodies.content(c.content().retain(), last, trailers));
      }
    }
    downstreamEnded |= last;
    updateDownstreamRead();
  }

  private void sendRequestChunk(ByteBuf chunk, boolean last, HeaderList trailers) {
    requestSent.sent(chunk);
    if (chunk.isReadable() || (last && trailers == null)) {
      picker.sendRequestBody(chunk, last && trailers == null);
    }
    if (trailers != null) {
      requestTrailers = trailers;
      picker.sendRequestTrailers(trailers);
    }
  }

  boolean downstreamEnded() {
    return downstreamEnded;
  }

  void onDownstreamWritable() {
    if (!finished) {
      askForReplyIfWanted();
      updateUpstreamRead();
    }
  }

  /** The client went away (connection closed, or stream reset) before the response ended. */
  void onDownstreamClosed() {
    if (!finished) {
      LOG.debug("client went away; cancelling the upstream request and the ext_proc stream");
      terminate(499, "client disconnected");
    }
  }

  // ---------------------------------------------------------------- picker side

  @Override
  public void onReply(PickerReply reply) {
    if (finished || picker == null) {
      return;
    }
    lastActivity = System.nanoTime();
    switch (reply) {
      case PickerReply.Headers h when h.side() == PickerReply.Side.REQUEST -> onRequestHeaders(h);
      case PickerReply.Headers h -> onResponseHeaders(h);
      case PickerReply.Body b when b.side() == PickerReply.Side.REQUEST -> onRequestEcho(b);
      case PickerReply.Body b -> onResponseEcho(b);
      case PickerReply.Trailers t when t.side() == PickerReply.Side.REQUEST ->
          onRequestTrailersReply(t);
      case PickerReply.Trailers t -> onResponseTrailersReply(t);
      case PickerReply.Immediate i -> onImmediate(i);
      case PickerReply.Spurious s -> spurious(s.why());
    }
    if (!finished && picker != null) {
      replyWanted = true;
      askForReplyIfWanted();
    }
  }

  private void onRequestHeaders(PickerReply.Headers h) {
    if (requestAnswered) {
      spurious("a second request headers reply");
      return;
    }
    requestAnswered = true;
    h.mutation().applyTo(requestHeaders);
    if (h.clearRouteCache() && !h.mutation().isEmpty()) {
      route = gw.router().match(requestHeaders);
    }
    connectUpstream();
  }

  private void onRequestEcho(PickerReply.Body b) {
    if (!requestAnswered || upstream.requestEnded()) {
      spurious("a request body chunk out of order");
      return;
    }
    requestSent.echoed(b.chunk().readableBytes());
    boolean last = b.endOfStream() && requestTrailers == null;
    upstream.write(Bodies.content(b.chunk(), last, null));
  }

  private void onRequestTrailersReply(PickerReply.Trailers t) {
    if (requestTrailers == null || upstream.requestEnded()) {
      spurious("a request trailers reply without request trailers");
      return;
    }
    t.mutation().applyTo(requestTrailers);
    upstream.write(Bodies.content(null, true, requestTrailers));
  }

  private void onResponseHeaders(PickerReply.Headers h) {
    if (responseHeaders == null || down.headStarted()) {
      spurious("a response headers reply out of order");
      return;
    }
    h.mutation().applyTo(responseHeaders);
    down.head(responseHeaders, downstreamEnded);
    if (!responseHasBody) {
      endResponse(null);
    }
  }

  private void onResponseEcho(PickerReply.Body b) {
    if (!down.headStarted()) {
      spurious("a response body chunk before the response headers reply");
      return;
    }
    responseSent.echoed(b.chunk().readableBytes());
    if (b.chunk().isReadable()) {
      down.body(b.chunk());
    }
    if (b.endOfStream() && responseTrailers == null) {
      endResponse(null);
    } else {
      updateUpstreamRead();
    }
  }

  private void onResponseTrailersReply(PickerReply.Trailers t) {
    if (responseTrailers == null || !down.headStarted()) {
      spurious("a response trailers reply without response trailers");
      return;
    }
    t.mutation().applyTo(responseTrailers);
    endResponse(responseTrailers);
  }

  private void onImmediate(PickerReply.Immediate i) {
    picker = null; // the picker ends the stream itself
    if (down.headStarted()) {
      terminate(502, "immediate response after the response started");
      return;
    }
    HeaderList h = new HeaderList().add(":status", Integer.toString(i.status()));
    i.headers().applyTo(h);
    answerLocally(new LocalReply(h, i.body()));
  }

  private void spurious(String why) {
    LOG.warn("ext_proc: spurious message from the picker: {}", why);
    gw.metrics().extProcError("spurious");
    ExtProcCall p = picker;
    picker = null;
    p.cancel("spurious message");
    failClosed("the endpoint picker sent an invalid message");
  }

  @Override
  public void onReady() {
    if (!finished) {
      updateDownstreamRead();
      updateUpstreamRead();
    }
  }

  @Override
  public void onEnd(Status status) {
    if (finished || picker == null) {
      return; // we closed it, or it ended after an immediate response
    }
    picker = null;
    if (status.isOk()) {
      gw.metrics().extProcError("closed");
      continueUnprocessed(); // Envoy continues when the processor closes without answering
    } else {
      gw.metrics().extProcError("failed");
      gw.picker().reportFailure(status);
      if (gw.config().failureModeAllow()) {
        continueUnprocessed();
      } else {
        failClosed("the endpoint picker is unavailable");
      }
    }
  }

  /** Fail-open (or a processor that left): carry on as if there were no ext_proc filter. */
  private void continueUnprocessed() {
    if (requestHasBody && !upstream.requestEnded() && !requestSent.recoverable()) {
      failClosed("the request body is no longer available to forward");
      return;
    }
    if (!requestAnswered) {
      requestAnswered = true;
      connectUpstream();
      if (finished) {
        return;
      }
    }
    if (requestHasBody && !upstream.requestEnded()) {
      for (ByteBuf b : requestSent.takeUnechoed()) {
        upstream.write(new DefaultHttpContent(b));
      }
      if (downstreamEnded) {
        upstream.write(Bodies.content(null, true, requestTrailers));
      }
    }
    if (responseHeaders != null) {
      continueResponseUnprocessed();
    }
    updateDownstreamRead();
  }

  private void continueResponseUnprocessed() {
    if (down.headStarted()) {
      // the shipped config's contract: a stream that breaks after the response started is reset
      terminate(502, "ext_proc stream ended after the response started");
      return;
    }
    down.head(responseHeaders, downstreamEnded);
    for (ByteBuf b : responseSent.takeUnechoed()) {
      down.body(b);
    }
    if (!responseHasBody || upstreamResponseEnded) {
      endResponse(responseTrailers);
    } else {
      updateUpstreamRead();
    }
  }

  // ---------------------------------------------------------------- model-server side

  private void connectUpstream() {
    Router.Target target = gw.router().target(route, requestHeaders);
    if (target instanceof Router.Target.None none) {
      gw.metrics().upstreamError("no_route");
      respondAsUpstream(LocalReply.error(503, none.why(), "no_healthy_upstream"));
      return;
    }
    var address = ((Router.Target.Host) target).address();
    retryHosts = new ArrayDeque<>(gw.router().fallbacks(route, requestHeaders));
    upstream.write(Headers.upstreamRequest(requestHeaders, requestHasBody));
    if (!requestHasBody) {
      upstream.write(LastHttpContent.EMPTY_LAST_CONTENT);
    }
    upstream.connect(address, route.h2c(), this::onConnected);
  }

  private void onConnected(Throwable failure) {
    if (finished) {
      return;
    }
    if (failure != null) {
      gw.metrics().upstreamError("connect");
      LOG.debug("upstream connect to {} failed: {}", upstream.address(), failure.toString());
      HostPort next = retryHosts.poll();
      if (next != null) {
        // Envoy's connect-failure retry onto the next cluster of the aggregate: the connection
        // was never made, so no byte of the request reached a model server
        gw.metrics().upstreamRetry("connect");
        upstream.connect(next, route.h2c(), this::onConnected);
        return;
      }
      respondAsUpstream(
          LocalReply.error(
              503,
              "upstream connect error to " + upstream.address() + ": " + failure.getMessage(),
              "upstream_connect_error"));
      return;
    }
    askForReplyIfWanted();
    updateDownstreamRead();
  }

  @Override
  public void onUpstreamHead(HttpResponse res) {
    if (finished || responseHeaders != null || res.status().code() < 200) {
      return; // 1xx: wait for the final response
    }
    lastActivity = System.nanoTime();
    responseHeaders = Headers.response(res);
    responseHasBody = Bodies.responseHasBody(res, requestHeaders.get(":method"));
    responseKeepAlive = HttpUtil.isKeepAlive(res);
    if (picker != null) {
      picker.sendResponseHeaders(responseHeaders, !responseHasBody, upstream.address());
    } else {
      continueResponseUnprocessed();
    }
  }

  @Override
  public void onUpstreamContent(HttpContent c) {
    if (finished || responseHeaders == null) {
      return;
    }
    lastActivity = System.nanoTime();
    boolean last = c instanceof LastHttpContent;
    boolean forward = responseHasBody && !upstreamResponseEnded;
    if (last) {
      // settle the connection first: the response may end the exchange just below
      upstreamResponseEnded = true;
      if (upstream.requestEnded()) {
        upstream.responseEnded(responseKeepAlive);
      } else {
        // answered before it took the whole request (413, an early error): the connection is
        // out of step, and the rest of the request body has nowhere to go
        upstream.abort();
      }
    }
    if (forward) {
      HeaderList trailers = last ? Bodies.trailers((LastHttpContent) c) : null;
      responseTrailers = trailers;
      if (picker != null) {
        sendResponseChunk(c.content(), last, trailers);
      } else {
        if (c.content().isReadable()) {
          down.body(c.content().retain());
        }
        if (last) {
          endResponse(trailers);
        }
      }
    }
    if (last) {
      askForReplyIfWanted();
    }
    updateUpstreamRead();
  }

  private void sendResponseChunk(ByteBuf chunk, boolean last, HeaderList trailers) {
    responseSent.sent(chunk);
    if (chunk.isReadable() || (last && trailers == null)) {
      picker.sendResponseBody(chunk, last && trailers == null);
    }
    if (trailers != null) {
      picker.sendResponseTrailers(trailers);
    }
  }

  @Override
  public void onUpstreamClosed() {
    if (finished || upstreamResponseEnded) {
      return;
    }
    gw.metrics().upstreamError("reset");
    if (responseHeaders == null) {
      respondAsUpstream(
          LocalReply.error(
              503, "upstream reset before response headers", "upstream_reset_before_headers"));
    } else {
      terminate(502, "upstream reset mid-response");
    }
  }

  @Override
  public void onUpstreamProtocolError(Throwable cause) {
    if (finished || upstreamResponseEnded) {
      return;
    }
    gw.metrics().upstreamError("protocol");
    LOG.debug("upstream {} sent an invalid response: {}", upstream.address(), cause.toString());
    if (responseHeaders == null) {
      // Envoy: 502 for a protocol error before the response started (503 for other resets)
      respondAsUpstream(
          LocalReply.error(
              502, "upstream protocol error: " + cause.getMessage(), "upstream_protocol_error"));
    } else {
      terminate(502, "upstream protocol error mid-response");
    }
  }

  @Override
  public void onUpstreamWritable() {
    if (!finished) {
      askForReplyIfWanted();
      updateDownstreamRead();
    }
  }

  /**
   * A reply of the gateway's own that stands for the upstream's (no route, connect failure, reset
   * before headers): like Envoy's local replies it passes through the response path of ext_proc
   * when the stream is up, so the picker sees the status.
   */
  private void respondAsUpstream(LocalReply reply) {
    upstream.abort();
    if (picker == null) {
      answerLocally(reply);
      return;
    }
    responseHeaders = reply.headers();
    responseHasBody = true;
    upstreamResponseEnded = true;
    picker.sendResponseHeaders(responseHeaders, false, upstream.address());
    sendResponseChunk(reply.body(), true, null);
    reply.body().release();
    askForReplyIfWanted(); // the model server may have been what held the replies back
  }

  // ---------------------------------------------------------------- endings

  private void failClosed(String message) {
    if (down.headStarted()) {
      terminate(502, message);
    } else {
      answerLocally(LocalReply.error(500, message, "ext_proc_error"));
    }
  }

  private void answerLocally(LocalReply reply) {
    LocalReply mapped = reply.mapped();
    close(mapped.status());
    down.local(mapped, downstreamEnded);
  }

  private void endResponse(HeaderList trailers) {
    close(Headers.parseStatus(responseHeaders.get(":status")));
    down.end(trailers, downstreamEnded);
  }

  /** Ends abnormally: cancel the side stream, cut the upstream, reset the client. */
  private void terminate(int metricStatus, String why) {
    if (picker != null) {
      picker.cancel(why);
      picker = null;
    }
    close(metricStatus);
    down.reset();
  }

  private void close(int s) {
    if (finished) {
      return;
    }
    finished = true;
    gw.metrics().request(s);
    if (picker != null) {
      picker.halfClose();
      picker = null;
    }
    if (!upstream.requestEnded() || !upstreamResponseEnded) {
      upstream.abort();
    }
    requestSent.release();
    responseSent.release();
    if (idleTimer != null) {
      idleTimer.cancel(false); // else the loop's timer queue holds this exchange for streamIdle
      idleTimer = null;
    }
  }

  // ---------------------------------------------------------------- flow control and idleness

  private void askForReplyIfWanted() {
    boolean sinksReady = (!requestAnswered || upstream.canTakeBody()) && down.writable();
    if (replyWanted && picker != null && sinksReady) {
      replyWanted = false;
      picker.request();
    }
  }

  private void updateDownstreamRead() {
    if (finished || downstreamEnded) {
      return;
    }
    boolean read = picker != null ? picker.isReady() : upstream.writable();
    down.autoRead(read);
  }

  private void updateUpstreamRead() {
    if (finished) {
      return;
    }
    boolean read =
        picker != null
            ? picker.isReady()
                && responseSent.outstanding() < gw.config().limits().responseWindowBytes()
            : down.writable();
    upstream.autoRead(read);
  }

  private void scheduleIdleCheck(long delayNanos) {
    idleTimer = loop.schedule(this::idleCheck, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void idleCheck() {
    idleTimer = null;
    if (finished) {
      return;
    }
    long idle = gw.config().timeouts().streamIdle().toNanos();
    long quiet = System.nanoTime() - lastActivity;
    if (quiet < idle) {
      scheduleIdleCheck(idle - quiet);
      return;
    }
    gw.metrics().upstreamError("timeout");
    if (down.headStarted()) {
      terminate(408, "stream idle timeout");
    } else {
      if (picker != null) {
        picker.cancel("stream idle timeout");
        picker = null;
      }
      answerLocally(LocalReply.error(408, "stream idle timeout", "stream_idle_timeout"));
    }
  }
}
