package dev.pointsman.gateway.proxy;

import dev.pointsman.extproc.RoutingHeaders;
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
   * Routing headers a client must not set: the list of deploy/envoy/envoy.yaml's early header
   * mutation and header-mutation filter, which remove them before the route is computed.
   */
  static final List<String> ROUTING = RoutingHeaders.STRIPPED;

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
   * The request as Envoy's filters see it with the shipped config: pseudo-headers first, names
   * lower-case, the path as normalised ({@code path}), connection headers gone, headers with
   * underscores dropped ({@code headers_with_underscores_action: DROP_HEADER}), client routing
   * headers stripped, a fresh {@code x-request-id} ({@code generate_request_id}, not preserving the
   * client's), and {@code x-forwarded-for}/{@code x-forwarded-proto} set ({@code
   * use_remote_address}).
   */
  static HeaderList request(HttpRequest req, String path, String scheme, String clientIp) {
    HeaderList h = new HeaderList();
    String authority = req.headers().get(HttpHeaderNames.HOST);
    h.add(":authority", authority == null ? "" : authority);
    h.add(":path", path);
    h.add(":method", req.method().name());
    h.add(":scheme", scheme);
    String forwardedFor = null;
    for (Map.Entry<String, String> e : req.headers()) {
      String name = e.getKey().toLowerCase(Locale.ROOT);
      if (name.equals("x-forwarded-for")) {
        forwardedFor = forwardedFor == null ? e.getValue() : forwardedFor + "," + e.getValue();
      } else if (keep(name)) {
        h.add(name, e.getValue());
      }
    }
    h.set("x-forwarded-for", forwardedFor == null ? clientIp : forwardedFor + "," + clientIp);
    h.set("x-forwarded-proto", scheme);
    h.set("x-request-id", UUID.randomUUID().toString());
    return h;
  }

  private static boolean keep(String name) {
    return !CONNECTION_SPECIFIC.contains(name)
        && !name.startsWith("x-http2-")
        && name.indexOf('_') < 0
        && !ROUTING.contains(name);
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
    out.remove(Router.APP_PROTOCOL); // the picker's word to this data plane, as Envoy's picked-h2c
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
      if (!CONNECTION_SPECIFIC.contains(name) && !name.startsWith("x-http2-")) {
        h.add(name, e.getValue()); // x-http2-*: Netty's notes on an h2c response, not headers
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
