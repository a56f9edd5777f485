package dev.pointsman.runtime;

import com.sun.net.httpserver.HttpExchange;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;

/** Content negotiation for {@code /metrics}: OpenMetrics when asked for, else Prometheus text. */
final class MetricsScrape {
  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

  private MetricsScrape() {}

  static HttpReply reply(PrometheusMeterRegistry registry, HttpExchange exchange) {
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    String contentType =
        accept != null && accept.contains("application/openmetrics-text")
            ? OPEN_METRICS
            : PROMETHEUS_TEXT;
    String body = registry.scrape(contentType);
    return new HttpReply(200, contentType, body.getBytes(StandardCharsets.UTF_8));
  }
}
