package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.http.HeaderList;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Conversions between Netty's HTTP/1.1 objects and the header blocks Envoy's filters see. */
final class Headers {
  /**
   * Routing headers a client must not set (the Envoy config's header-mutation filter removes them
   * before ext_proc).
   */
  static final List<String> ROUTING =
      List.of(
          "x-gateway-destination-endpoint",
          "x-gateway-destination-endpoint-subset",
          "x-gateway-model-name",
          "x-gateway-base-model-name",
          "x-gateway-destination-endpoint-served");

  private static final Set<String> CONNECTION_SPECIFIC =
      Set.of(
          "connection",
          "keep-alive",
          "proxy-connection",
          "transfer-encoding",
          "te",
          "upgrade",
          "http2-settings",
          "host");

  private Headers() {}

  /**
   * The request as Envoy's filters see it: pseudo-headers first, names lower-case, connection
   * headers gone, client routing headers stripped, {@code x-request-id} and {@code
   * x-forwarded-proto} added when absent (Envoy's connection manager defaults).
   */
  static HeaderList request(HttpRequest req, String scheme) {
    HeaderList h = new HeaderList();
    String authority = req.headers().get(HttpHeaderNames.HOST);
    h.add(":authority", authority == null ? "" : authority);
    h.add(":path", req.uri());
    h.add(":method", req.method().name());
    h.add(":scheme", scheme);
    for (Map.Entry<String, String> e : req.headers()) {
      String name = e.getKey().toLowerCase(Locale.ROOT);
      if (!CONNECTION_SPECIFIC.contains(name)
          && !name.startsWith("x-http2-")
          && !ROUTING.contains(name)) {
        h.add(name, e.getValue());
      }
    }
    if (!h.contains("x-forwarded-proto")) {
      h.add("x-forwarded-proto", scheme);
    }
    if (!h.contains("x-request-id")) {
      h.add("x-request-id", UUID.randomUUID().toString());
    }
    return h;
  }

  /** The HTTP/1.1 request to the model server; the body is chunked when there is one. */
  static HttpRequest upstreamRequest(HeaderList h, boolean hasBody) {
    HttpRequest req =
        new DefaultHttpRequest(
            HttpVersion.HTTP_1_1, HttpMethod.valueOf(h.get(":method")), h.get(":path"));
    HttpHeaders out = req.headers();
    String authority = h.get(":authority");
    if (authority != null && !authority.isEmpty()) {
      out.set(HttpHeaderNames.HOST, authority);
    }
    copyRegular(h, out);
    out.remove(HttpHeaderNames.CONTENT_LENGTH);
    if (hasBody) {
      out.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    } else if (!req.method().equals(HttpMethod.GET) && !req.method().equals(HttpMethod.HEAD)) {
      out.set(HttpHeaderNames.CONTENT_LENGTH, 0);
    }
    return req;
  }

  /** The model server's response as Envoy's filters see it: {@code :status} first. */
  static HeaderList response(HttpResponse res) {
    HeaderList h = new HeaderList();
    h.add(":status", Integer.toString(res.status().code()));
    for (Map.Entry<String, String> e : res.headers()) {
      String name = e.getKey().toLowerCase(Locale.ROOT);
      if (!CONNECTION_SPECIFIC.contains(name)) {
        h.add(name, e.getValue());
      }
    }
    return h;
  }

  /**
   * The response to the client. The body may have been rewritten by the picker, so its length is
   * not carried: HTTP/1.1 uses chunked encoding, HTTP/2 frames end the stream.
   */
  static HttpResponse clientResponse(HeaderList h, boolean keepAlive) {
    int status = parseStatus(h.get(":status"));
    HttpResponse res =
        new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
    copyRegular(h, res.headers());
    res.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
    res.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    if (!keepAlive) {
      res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    return res;
  }

  /** Trailers as a header block. */
  static HeaderList block(HttpHeaders headers) {
    HeaderList h = new HeaderList();
    headers.forEach(e -> h.add(e.getKey(), e.getValue()));
    return h;
  }

  static void copyRegular(HeaderList from, HttpHeaders to) {
    from.forEach(
        (name, value) -> {
          if (!name.startsWith(":") && !CONNECTION_SPECIFIC.contains(name)) {
            to.add(name, value);
          }
        });
  }

  static int parseStatus(String value) {
    try {
      int s = value == null ? 0 : Integer.parseInt(value.strip());
      return s >= 100 && s <= 599 ? s : 502;
    } catch (NumberFormatException e) {
      return 502;
    }
  }
}
