package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.http.HeaderList;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

/** Whether a message has a body, and body chunks as Netty objects. */
final class Bodies {
  private Bodies() {}

  /**
   * HTTP/1.1: a length above zero or chunked encoding; HTTP/2: unless the headers ended the stream
   * (the stream codec then hands over a full request).
   */
  static boolean requestHasBody(HttpRequest req, boolean http2) {
    if (req instanceof FullHttpRequest full) {
      return full.content().isReadable();
    }
    if (http2) {
      return true;
    }
    return HttpUtil.isTransferEncodingChunked(req) || HttpUtil.getContentLength(req, 0L) > 0;
  }

  static boolean responseHasBody(HttpResponse res, String method) {
    int s = res.status().code();
    if ("HEAD".equals(method) || s == 204 || s == 304) {
      return false;
    }
    return HttpUtil.getContentLength(res, -1L) != 0;
  }

  /** The trailers of a last chunk, or null when it has none. */
  static HeaderList trailers(LastHttpContent last) {
    return last.trailingHeaders().isEmpty() ? null : Headers.block(last.trailingHeaders());
  }

  /** A chunk, the last one with {@code trailers}; {@code data} may be null (no bytes). */
  static HttpContent content(ByteBuf data, boolean last, HeaderList trailers) {
    ByteBuf bytes = data == null ? Unpooled.EMPTY_BUFFER : data;
    if (!last) {
      return new DefaultHttpContent(bytes);
    }
    LastHttpContent end = new DefaultLastHttpContent(bytes);
    if (trailers != null) {
      Headers.copyRegular(trailers, end.trailingHeaders());
    }
    return end;
  }
}
