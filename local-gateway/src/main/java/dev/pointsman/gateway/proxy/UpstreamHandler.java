package dev.pointsman.gateway.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;

/**
 * The last handler of a model-server connection: hands responses to the exchange that holds the
 * connection. An idle pooled connection has no listener; anything it receives closes it.
 */
final class UpstreamHandler extends ChannelInboundHandlerAdapter {

  /** The exchange using the connection; called on the connection's event loop. */
  interface Listener {
    void onUpstreamHead(HttpResponse response);

    void onUpstreamContent(HttpContent content);

    void onUpstreamClosed();

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
