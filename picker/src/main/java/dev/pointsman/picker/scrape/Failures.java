package dev.pointsman.picker.scrape;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.CancellationException;

/** Maps a failed scrape to a bounded reason word. */
final class Failures {

  /**
   * The body answered is not the Prometheus text format: JSON, such as trtllm-serve's iteration
   * stats at {@code /metrics} (its text is at {@code /prometheus/metrics}).
   */
  static final String NOT_PROMETHEUS_TEXT = "not_prometheus_text";

  private Failures() {}

  /**
   * Whether a 200 answer is JSON rather than an exposition: a JSON content type, or a body whose
   * first non-blank character opens a JSON array or object (no exposition line starts so).
   */
  static boolean notPrometheusText(HttpResponse<byte[]> response) {
    String type = response.headers().firstValue("content-type").orElse("");
    if (type.regionMatches(true, 0, "application/json", 0, "application/json".length())) {
      return true;
    }
    for (byte b : response.body()) {
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return b == '[' || b == '{';
      }
    }
    return false;
  }

  /** {@code timeout}, {@code connect} or {@code io}. */
  static String reason(Throwable error) {
    Throwable t = error;
    for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
      if (t instanceof HttpConnectTimeoutException
          || t instanceof ConnectException
          || t instanceof NoRouteToHostException
          || t instanceof UnknownHostException
          || t instanceof UnresolvedAddressException) {
        return "connect";
      }
      if (t instanceof HttpTimeoutException || t instanceof CancellationException) {
        return "timeout";
      }
    }
    return "io";
  }
}
