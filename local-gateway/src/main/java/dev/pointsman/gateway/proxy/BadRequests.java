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

/** Requests that cannot be parsed: an OpenAI-style 400 (431 for oversized headers), then close. */
final class BadRequests {
  private BadRequests() {}

  static void reply(ChannelHandlerContext ctx, Throwable cause, GatewayMetrics metrics) {
    boolean tooLong =
        cause instanceof TooLongHttpHeaderException || cause instanceof TooLongHttpLineException;
    int status = tooLong ? 431 : 400;
    LocalReply r =
        LocalReply.error(
            status,
            "malformed HTTP request: " + (cause == null ? "unknown" : cause.getMessage()),
            tooLong ? "headers_too_large" : "malformed_http");
    ByteBuf body = r.body();
    FullHttpResponse res =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), body);
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
    res.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    metrics.request(status);
    ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
  }
}
