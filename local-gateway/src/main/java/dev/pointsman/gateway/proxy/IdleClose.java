package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.telemetry.GatewayMetrics;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.function.BooleanSupplier;

/**
 * Envoy's connection {@code idle_timeout}: a client connection with no request in progress, and no
 * bytes either way for the configured time (an {@link io.netty.handler.timeout.IdleStateHandler}
 * placed before this handler tells), is closed; HTTP/2 closes with GOAWAY. A connection with a
 * request in progress is left to the stream idle timeout.
 */
final class IdleClose extends ChannelInboundHandlerAdapter {
  private final BooleanSupplier busy;
  private final GatewayMetrics metrics;

  /** {@code busy}: whether a request is in progress on the connection. */
  IdleClose(BooleanSupplier busy, GatewayMetrics metrics) {
    this.busy = busy;
    this.metrics = metrics;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (!(evt instanceof IdleStateEvent)) {
      ctx.fireUserEventTriggered(evt);
      return;
    }
    if (!busy.getAsBoolean()) {
      metrics.connectionClosed("idle");
      ctx.channel().close(); // from the tail, so that the HTTP/2 frame codec sends GOAWAY
    }
  }
}
