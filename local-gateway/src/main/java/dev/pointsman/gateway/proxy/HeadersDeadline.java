package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.telemetry.GatewayMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Envoy's {@code request_headers_timeout} for one client connection: a client must finish a
 * request's header block in time. Armed when the connection starts serving and, on HTTP/1.1, by the
 * first byte of each further request; disarmed by a complete header block (HTTP/2: the first
 * stream's). When it fires: HTTP/1.1 gets 408 and the connection closes (just closes if a response
 * is in progress); HTTP/2 gets GOAWAY. Confined to the connection's event loop.
 */
final class HeadersDeadline {
  private final Duration timeout;
  private final GatewayMetrics metrics;
  private final BooleanSupplier busy;
  private ChannelHandlerContext ctx;
  private ScheduledFuture<?> timer;
  private boolean awaiting = true;

  /** {@code busy}: whether a response is in progress on the connection. */
  HeadersDeadline(Duration timeout, GatewayMetrics metrics, BooleanSupplier busy) {
    this.timeout = timeout;
    this.metrics = metrics;
    this.busy = busy;
  }

  /** HTTP/1.1, before the codec: bytes of a next request head arm the timer. */
  ChannelHandler bytes() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
        arm();
      }

      @Override
      public void channelRead(ChannelHandlerContext context, Object msg) {
        if (awaiting && msg instanceof ByteBuf b && b.isReadable()) {
          arm();
        }
        context.fireChannelRead(msg);
      }

      @Override
      public void channelInactive(ChannelHandlerContext context) {
        disarm();
        context.fireChannelInactive();
      }
    };
  }

  /** HTTP/1.1, after the codec: a decoded request head disarms; its body's end awaits the next. */
  ChannelHandler http1Messages() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext context, Object msg) {
        if (msg instanceof HttpRequest) {
          awaiting = false;
          disarm();
        }
        if (msg instanceof LastHttpContent) {
          awaiting = true;
        }
        context.fireChannelRead(msg);
      }
    };
  }

  /** HTTP/2, between the frame codec and the multiplexer: the first headers frame disarms. */
  ChannelHandler http2Frames() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
        arm();
      }

      @Override
      public void channelRead(ChannelHandlerContext context, Object msg) {
        if (msg instanceof Http2HeadersFrame) {
          awaiting = false;
          disarm();
          context.pipeline().remove(this);
        }
        context.fireChannelRead(msg);
      }

      @Override
      public void channelInactive(ChannelHandlerContext context) {
        disarm();
        context.fireChannelInactive();
      }
    };
  }

  private void arm() {
    if (timer == null && ctx.channel().isOpen()) {
      timer = ctx.executor().schedule(this::fire, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  private void disarm() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  private void fire() {
    timer = null;
    if (!awaiting || !ctx.channel().isActive()) {
      return;
    }
    metrics.connectionClosed("request_headers_timeout");
    if (ctx.pipeline().get(DownstreamHandler.class) != null && !busy.getAsBoolean()) {
      BadRequests.close(
          ctx.pipeline().lastContext(),
          LocalReply.error(408, "request headers not received in time", "request_headers_timeout"),
          metrics);
    } else {
      ctx.channel().close(); // HTTP/2: the frame codec sends GOAWAY
    }
  }
}
