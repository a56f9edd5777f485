package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.telemetry.GatewayMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

/**
 * HTTP/1.1 requests that cannot be served: an OpenAI-style 400 (431 for oversized headers, 408 for
 * headers too slow), then close.
 */
final class BadRequests {
  private BadRequests() {}

  static void reply(ChannelHandlerContext ctx, Throwable cause, GatewayMetrics metrics) {
    boolean tooLong =
        cause instanceof TooLongHttpHeaderException || cause instanceof TooLongHttpLineException;
    int status = tooLong ? 431 : 400;
    close(
        ctx,
        LocalReply.error(
            status,
            "malformed HTTP request: " + (cause == null ? "unknown" : cause.getMessage()),
            tooLong ? "headers_too_large" : "malformed_http"),
        metrics);
  }

  /** Answers {@code r} on an HTTP/1.1 connection, then closes it. */
  static void close(ChannelHandlerContext ctx, LocalReply r, GatewayMetrics metrics) {
    ByteBuf body = r.body();
    FullHttpResponse res =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()), body);
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
    res.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    metrics.request(r.status());
    ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
  }
}
