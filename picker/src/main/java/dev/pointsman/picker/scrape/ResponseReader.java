package dev.pointsman.picker.scrape;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.Arrays;

/**
 * Collects the responses of one channel into a byte array it reuses (Content-Length and chunked
 * bodies alike, as Netty's decoder delivers them) and hands each whole one to its {@link
 * HttpConnection}. Runs on the channel's event loop.
 */
final class ResponseReader extends ChannelInboundHandlerAdapter {

  private final HttpConnection owner;
  private final int maxBodyBytes;
  private byte[] buffer = new byte[16 * 1024];
  private int length;
  private int status;
  private String contentType = "";
  private boolean keepAlive;
  private boolean started;

  ResponseReader(HttpConnection owner, int maxBodyBytes) {
    this.owner = owner;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (msg instanceof HttpResponse response) {
        head(ctx, response);
      }
      if (started && msg instanceof HttpContent content) {
        content(ctx, content);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void head(ChannelHandlerContext ctx, HttpResponse response) {
    if (failed(ctx, response.decoderResult())) {
      return;
    }
    started = true;
    length = 0;
    status = response.status().code();
    String type = response.headers().get(HttpHeaderNames.CONTENT_TYPE);
    contentType = type == null ? "" : type;
    keepAlive = HttpUtil.isKeepAlive(response);
    long declared = HttpUtil.getContentLength(response, -1L);
    if (declared > maxBodyBytes) {
      tooLarge(ctx, declared);
    } else if (declared > buffer.length) {
      buffer = new byte[(int) declared];
    }
  }

  private void content(ChannelHandlerContext ctx, HttpContent content) {
    if (failed(ctx, content.decoderResult())) {
      return;
    }
    ByteBuf bytes = content.content();
    int n = bytes.readableBytes();
    if ((long) length + n > maxBodyBytes) {
      tooLarge(ctx, (long) length + n);
      return;
    }
    if (length + n > buffer.length) {
      buffer =
          Arrays.copyOf(buffer, Math.min(maxBodyBytes, Math.max(length + n, buffer.length * 2)));
    }
    bytes.getBytes(bytes.readerIndex(), buffer, length, n);
    length += n;
    if (content instanceof LastHttpContent) {
      started = false;
      owner.answered(ctx.channel(), new HttpBody(status, contentType, buffer, length), keepAlive);
    }
  }

  private void tooLarge(ChannelHandlerContext ctx, long size) {
    started = false;
    owner.failed(ctx.channel(), new BodyTooLargeException(size, maxBodyBytes));
  }

  private boolean failed(ChannelHandlerContext ctx, DecoderResult result) {
    if (result.isFailure()) {
      started = false;
      owner.failed(ctx.channel(), new IOException("malformed HTTP response", result.cause()));
      return true;
    }
    return false;
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    owner.closed(ctx.channel(), started);
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    owner.failed(ctx.channel(), cause);
  }
}
