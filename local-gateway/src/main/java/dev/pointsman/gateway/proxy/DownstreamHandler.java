package dev.pointsman.gateway.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;

/**
 * The client-facing handler of an HTTP/1.1 connection or of one HTTP/2 stream: one {@link Exchange}
 * per request. HTTP/1.1 requests are served one at a time; a pipelined request waits (reading
 * pauses) until the previous response is complete. Confined to the channel's event loop.
 */
public final class DownstreamHandler extends ChannelInboundHandlerAdapter {
  private final ProxyContext gw;
  private final boolean http2;
  private final String scheme;
  private final ArrayDeque<Object> pipelined = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  private Exchange current;

  DownstreamHandler(ProxyContext gw, boolean http2, String scheme) {
    this.gw = gw;
    this.http2 = http2;
    this.scheme = scheme;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext context) {
    this.ctx = context;
  }

  /** Whether a request is in progress or waiting on this connection (or stream). */
  boolean busy() {
    return current != null || !pipelined.isEmpty();
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object msg) {
    if (!pipelined.isEmpty() || (current != null && current.downstreamEnded())) {
      pipelined.add(msg);
      context.channel().config().setAutoRead(false);
      return;
    }
    dispatch(msg);
  }

  private void dispatch(Object msg) {
    try {
      if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
        BadRequests.reply(ctx, o.decoderResult().cause(), gw.metrics());
        return;
      }
      if (msg instanceof HttpRequest req) {
        Downstream down =
            new Downstream(ctx.channel(), http2, HttpUtil.isKeepAlive(req), this::onDone);
        current = new Exchange(gw, down);
        current.start(req, scheme, http2, clientIp());
      }
      if (msg instanceof HttpContent c && current != null) {
        current.onDownstreamContent(c);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private String clientIp() {
    Channel ch = ctx.channel();
    SocketAddress a = (http2 && ch.parent() != null ? ch.parent() : ch).remoteAddress();
    return a instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : "unknown";
  }

  private void onDone(boolean keepOpen) {
    current = null;
    if (!keepOpen) {
      releasePipelined();
      return;
    }
    ctx.channel().eventLoop().execute(this::replayPipelined);
  }

  private void replayPipelined() {
    while (!pipelined.isEmpty() && (current == null || !current.downstreamEnded())) {
      dispatch(pipelined.poll());
    }
    if (pipelined.isEmpty() && ctx.channel().isActive()) {
      ctx.channel().config().setAutoRead(true);
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext context) {
    if (current != null && context.channel().isWritable()) {
      current.onDownstreamWritable();
    }
    context.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) {
    Exchange e = current;
    current = null;
    if (e != null) {
      e.onDownstreamClosed();
    }
    releasePipelined();
    context.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    if (http2) {
      context.close(); // a stream's error; the connection's reach ClientErrors
    } else {
      ClientErrors.handle(context, cause, gw.metrics());
    }
  }

  private void releasePipelined() {
    pipelined.forEach(ReferenceCountUtil::release);
    pipelined.clear();
  }
}
