package dev.pointsman.picker.scrape;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.CancellationException;

/** Maps a scrape exception to a bounded reason word. */
final class Failures {

  private Failures() {}

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
