package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.telemetry.GatewayMetrics;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http2.Http2Exception;
import java.io.IOException;
import java.net.SocketAddress;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a client connection's pipeline: what a client does wrong or how it leaves
 * (reset, TLS failure, HTTP/2 protocol error) is ordinary, counted and logged as one DEBUG line;
 * anything else is the gateway's own fault and logged at WARN with its trace. Either way the
 * connection closes. Stateless; shared by all connections.
 */
@ChannelHandler.Sharable
final class ClientErrors extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ClientErrors.class);

  private final GatewayMetrics metrics;

  ClientErrors(GatewayMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    handle(ctx, cause, metrics);
  }

  /** Counts, logs and closes; for other handlers that see a connection's errors first. */
  static void handle(ChannelHandlerContext ctx, Throwable cause, GatewayMetrics metrics) {
    String kind = kind(cause);
    metrics.clientError(kind);
    if (kind.equals("internal")) {
      LOG.warn("client connection {}: unexpected error", ctx.channel().remoteAddress(), cause);
    } else if (LOG.isDebugEnabled()) {
      LOG.debug(describe(ctx.channel().remoteAddress(), cause));
    }
    ctx.close();
  }

  /** {@code tls}, {@code protocol}, {@code reset} (the client went away) or {@code internal}. */
  static String kind(Throwable cause) {
    Throwable c = root(cause);
    if (c instanceof SSLException) {
      return "tls";
    }
    if (c instanceof Http2Exception || cause instanceof DecoderException) {
      return "protocol";
    }
    return c instanceof IOException ? "reset" : "internal";
  }

  /** One line: who, what kind, and the innermost message, e.g. for a reset by the peer. */
  static String describe(SocketAddress client, Throwable cause) {
    Throwable c = root(cause);
    String message = c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    return "client connection " + client + " closed (" + kind(cause) + "): " + message;
  }

  private static Throwable root(Throwable t) {
    Throwable c = t;
    while ((c instanceof DecoderException || c.getClass() == RuntimeException.class)
        && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }
}
