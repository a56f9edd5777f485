package dev.pointsman.gateway.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;

/**
 * The last handler of a model-server connection: hands responses to the exchange that holds the
 * connection. An idle pooled connection has no listener; anything it receives closes it. A response
 * the codec could not parse (or that the connection's end cut short) closes it too.
 */
final class UpstreamHandler extends ChannelInboundHandlerAdapter {

  /** The exchange using the connection; called on the connection's event loop. */
  interface Listener {
    void onUpstreamHead(HttpResponse response);

    void onUpstreamContent(HttpContent content);

    void onUpstreamClosed();

    /**
     * The response could not be parsed, or ended before it was complete; the connection is already
     * closed.
     */
    void onUpstreamProtocolError(Throwable cause);

    void onUpstreamWritable();
  }

  private Listener listener;

  void attach(Listener l) {
    this.listener = l;
  }

  void detach() {
    this.listener = null;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    Listener l = listener;
    try {
      if (l == null) {
        ctx.close();
        return;
      }
      if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
        // the codec skips everything after a parse failure: the connection is done
        listener = null;
        ctx.close();
        l.onUpstreamProtocolError(o.decoderResult().cause());
        return;
      }
      if (msg instanceof HttpResponse r) {
        l.onUpstreamHead(r);
      }
      if (msg instanceof HttpContent c) {
        l.onUpstreamContent(c);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (listener != null && ctx.channel().isWritable()) {
      listener.onUpstreamWritable();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    Listener l = listener;
    listener = null;
    if (l != null) {
      l.onUpstreamClosed();
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
