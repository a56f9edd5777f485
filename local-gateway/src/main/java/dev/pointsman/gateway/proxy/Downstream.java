package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.http.HeaderList;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.function.Consumer;

/**
 * The client side of one exchange: an HTTP/1.1 connection, or one HTTP/2 stream's child channel
 * (whose HTTP/1.1-style objects the stream codec turns into frames). Every body chunk is flushed at
 * once: SSE events must not wait. Confined to the channel's event loop.
 */
final class Downstream {
  private final Channel ch;
  private final boolean http2;
  private final boolean keepAlive;
  private final Consumer<Boolean> onDone;
  private boolean headStarted;
  private boolean closing;
  private boolean done;

  /**
   * @param onDone called once when the response is complete, with whether the connection stays open
   *     for the next request
   */
  Downstream(Channel ch, boolean http2, boolean keepAlive, Consumer<Boolean> onDone) {
    this.ch = ch;
    this.http2 = http2;
    this.keepAlive = keepAlive;
    this.onDone = onDone;
  }

  EventLoop eventLoop() {
    return ch.eventLoop();
  }

  boolean headStarted() {
    return headStarted;
  }

  boolean writable() {
    return ch.isWritable();
  }

  void autoRead(boolean on) {
    if (!done && ch.config().isAutoRead() != on) {
      ch.config().setAutoRead(on);
    }
  }

  /**
   * Starts the response; {@code requestDone}: the request was read whole (if not, an HTTP/1.1
   * connection closes after the response, and says so).
   */
  void head(HeaderList headers, boolean requestDone) {
    headStarted = true;
    closing = !http2 && !requestDone;
    ch.write(Headers.clientResponse(headers, http2 || (keepAlive && !closing)));
  }

  void body(ByteBuf chunk) {
    ch.writeAndFlush(new DefaultHttpContent(chunk));
  }

  /** Ends the response, with trailers if any; {@code requestDone}: the request was read whole. */
  void end(HeaderList trailers, boolean requestDone) {
    LastHttpContent last = new DefaultLastHttpContent();
    if (trailers != null) {
      Headers.copyRegular(trailers, last.trailingHeaders());
    }
    finish(ch.writeAndFlush(last), requestDone);
  }

  /** A complete response of the gateway's own (a local reply). */
  void local(LocalReply reply, boolean requestDone) {
    headStarted = true;
    boolean stay = (keepAlive || http2) && requestDone;
    FullHttpResponse res =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(reply.status()), reply.body());
    Headers.copyRegular(reply.headers(), res.headers());
    res.headers().set(HttpHeaderNames.CONTENT_LENGTH, reply.body().readableBytes());
    if (!stay) {
      res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    finish(ch.writeAndFlush(res), requestDone);
  }

  /** Ends the response abnormally: the connection (HTTP/1.1) or the stream (HTTP/2) is reset. */
  void reset() {
    if (!done) {
      done = true;
      ch.close();
      onDone.accept(false);
    }
  }

  private void finish(io.netty.channel.ChannelFuture written, boolean requestDone) {
    if (done) {
      return;
    }
    done = true;
    boolean stay = keepAlive && requestDone && !http2 && !closing;
    if (!stay && !(http2 && requestDone)) {
      written.addListener(ChannelFutureListener.CLOSE);
    }
    onDone.accept(stay);
  }
}
