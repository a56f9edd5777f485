package dev.pointsman.gateway.config;

import java.time.Duration;

/**
 * Timeouts, as in the Envoy config: no total route timeout (generations are long), an idle timeout
 * for silent streams, a short upstream connect timeout so a dead pod fails fast, a short deadline
 * for a client to finish its request headers, and an idle timeout for connections.
 *
 * @param upstreamConnectMillis connect timeout to a model server (Envoy cluster connect_timeout)
 * @param streamIdleMillis a request with no activity either way for this long ends: 408 before the
 *     response started, a reset after (HCM stream_idle_timeout)
 * @param pickerConnectMillis connect timeout to the picker
 * @param requestHeadersMillis a client must send a request's whole header block within this time of
 *     its first byte (HTTP/1.1), or of the connection's start (the first request, and HTTP/2's
 *     first stream); else 408 and the connection closes (HCM request_headers_timeout)
 * @param idleConnectionMillis a client connection with no request in progress for this long is
 *     closed (HTTP/2: GOAWAY) (HCM common_http_protocol_options.idle_timeout)
 */
public record TimeoutSection(
    Integer upstreamConnectMillis,
    Integer streamIdleMillis,
    Integer pickerConnectMillis,
    Integer requestHeadersMillis,
    Integer idleConnectionMillis) {

  public static final TimeoutSection DEFAULTS = new TimeoutSection(null, null, null, null, null);

  public TimeoutSection {
    upstreamConnectMillis = upstreamConnectMillis == null ? 2_000 : upstreamConnectMillis;
    streamIdleMillis = streamIdleMillis == null ? 600_000 : streamIdleMillis;
    pickerConnectMillis = pickerConnectMillis == null ? 1_000 : pickerConnectMillis;
    requestHeadersMillis = requestHeadersMillis == null ? 10_000 : requestHeadersMillis;
    idleConnectionMillis = idleConnectionMillis == null ? 3_600_000 : idleConnectionMillis;
    positive("upstreamConnectMillis", upstreamConnectMillis);
    positive("streamIdleMillis", streamIdleMillis);
    positive("pickerConnectMillis", pickerConnectMillis);
    positive("requestHeadersMillis", requestHeadersMillis);
    positive("idleConnectionMillis", idleConnectionMillis);
  }

  private static void positive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + ": " + value + " (expected >= 1)");
    }
  }

  public Duration upstreamConnect() {
    return Duration.ofMillis(upstreamConnectMillis);
  }

  public Duration streamIdle() {
    return Duration.ofMillis(streamIdleMillis);
  }

  public Duration pickerConnect() {
    return Duration.ofMillis(pickerConnectMillis);
  }

  public Duration requestHeaders() {
    return Duration.ofMillis(requestHeadersMillis);
  }

  public Duration idleConnection() {
    return Duration.ofMillis(idleConnectionMillis);
  }

  public TimeoutSection withStreamIdleMillis(int millis) {
    return new TimeoutSection(
        upstreamConnectMillis,
        millis,
        pickerConnectMillis,
        requestHeadersMillis,
        idleConnectionMillis);
  }

  public TimeoutSection withRequestHeadersMillis(int millis) {
    return new TimeoutSection(
        upstreamConnectMillis, streamIdleMillis, pickerConnectMillis, millis, idleConnectionMillis);
  }

  public TimeoutSection withIdleConnectionMillis(int millis) {
    return new TimeoutSection(
        upstreamConnectMillis, streamIdleMillis, pickerConnectMillis, requestHeadersMillis, millis);
  }
}
