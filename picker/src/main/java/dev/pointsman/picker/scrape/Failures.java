package dev.pointsman.picker.scrape;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/** Maps a failed scrape to a bounded reason word. */
final class Failures {

  /**
   * The body answered is not the Prometheus text format: JSON, such as trtllm-serve's iteration
   * stats at {@code /metrics} (its text is at {@code /prometheus/metrics}).
   */
  static final String NOT_PROMETHEUS_TEXT = "not_prometheus_text";

  /** The body is longer than the scraper reads ({@link ScrapeHttp#DEFAULT_MAX_BODY_BYTES}). */
  static final String TOO_LARGE = "too_large";

  private Failures() {}

  /**
   * Whether a 200 answer is JSON rather than an exposition: a JSON content type, or a body whose
   * first non-blank character opens a JSON array or object (no exposition line starts so).
   */
  static boolean notPrometheusText(HttpBody response) {
    String type = response.contentType();
    if (type.regionMatches(true, 0, "application/json", 0, "application/json".length())) {
      return true;
    }
    byte[] body = response.bytes();
    for (int i = 0; i < response.length(); i++) {
      byte b = body[i];
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return b == '[' || b == '{';
      }
    }
    return false;
  }

  /**
   * {@code timeout}, {@code connect}, {@code tls} (a handshake that failed: an untrusted
   * certificate, a plain-HTTP endpoint answering a TLS client, a TLS endpoint scraped without TLS
   * and closing on it is {@code io}), {@code too_large} or {@code io}.
   */
  static String reason(Throwable error) {
    Throwable t = error;
    for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof NoRouteToHostException
          || t instanceof UnknownHostException
          || t instanceof UnresolvedAddressException) {
        return "connect";
      }
      if (t instanceof TimeoutException || t instanceof CancellationException) {
        return "timeout";
      }
      if (t instanceof SSLException) {
        return "tls";
      }
      if (t instanceof BodyTooLargeException) {
        return TOO_LARGE;
      }
    }
    return "io";
  }
}
