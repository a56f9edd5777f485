package dev.pointsman.sim.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundInvoker;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.nio.charset.StandardCharsets;

/** Writes complete HTTP responses. */
final class HttpReplies {
  static final String SERVED_BY = "x-pointsman-served-by";

  private HttpReplies() {}

  static void send(
      ChannelOutboundInvoker ctx,
      SimPod pod,
      boolean keepAlive,
      HttpResponseStatus status,
      String contentType,
      String body) {
    var f = ctx.writeAndFlush(response(pod, keepAlive, status, contentType, body));
    if (!keepAlive) {
      f.addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static FullHttpResponse response(
      SimPod pod, boolean keepAlive, HttpResponseStatus status, String contentType, String body) {
    FullHttpResponse res =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1, status, Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    res.headers().set(SERVED_BY, pod.name());
    HttpUtil.setContentLength(res, res.content().readableBytes());
    HttpUtil.setKeepAlive(res, keepAlive);
    return res;
  }

  static void json(
      ChannelOutboundInvoker ctx,
      SimPod pod,
      boolean keepAlive,
      HttpResponseStatus status,
      String body) {
    send(ctx, pod, keepAlive, status, "application/json", body);
  }

  /**
   * A JSON response that ends the connection ({@code connection: close}); the caller decides how
   * the connection closes once the returned write completes.
   */
  static ChannelFuture json(
      ChannelOutboundInvoker ctx, SimPod pod, HttpResponseStatus status, String body) {
    return ctx.writeAndFlush(response(pod, false, status, "application/json", body));
  }

  /**
   * A request the codec could not parse: 431 for an oversized header block, 414 for an oversized
   * request line, else 400; the connection closes, since the codec skips whatever follows.
   */
  static void malformed(ChannelOutboundInvoker ctx, SimPod pod, Throwable cause) {
    HttpResponseStatus status =
        switch (cause) {
          case TooLongHttpHeaderException e -> HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
          case TooLongHttpLineException e -> HttpResponseStatus.REQUEST_URI_TOO_LONG;
          case null, default -> HttpResponseStatus.BAD_REQUEST;
        };
    String why = cause == null || cause.getMessage() == null ? "unparseable" : cause.getMessage();
    error(ctx, pod, false, status, "BadRequestError", "malformed HTTP request: " + why);
  }

  /** The engine refused a request it had accepted: 400, written on the channel's event loop. */
  static void rejected(ChannelHandlerContext ctx, SimPod pod, boolean keepAlive, String message) {
    ctx.executor()
        .execute(
            () ->
                error(
                    ctx,
                    pod,
                    keepAlive,
                    HttpResponseStatus.BAD_REQUEST,
                    "BadRequestError",
                    message));
  }

  static void error(
      ChannelOutboundInvoker ctx,
      SimPod pod,
      boolean keepAlive,
      HttpResponseStatus status,
      String type,
      String message) {
    json(ctx, pod, keepAlive, status, OpenAiJson.error(message, type, status.code()));
  }
}
