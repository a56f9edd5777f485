package dev.pointsman.picker.scrape;

import java.util.Objects;

/**
 * An endpoint to scrape.
 *
 * @param address {@code host:port}, the endpoint's inference address
 * @param engine how to read its metrics
 * @param metrics where its metrics are served, when not at the engine's default path and port
 */
public record ScrapeTarget(String address, Engine engine, MetricsLocation metrics) {
  public ScrapeTarget {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(metrics, "metrics");
    if (address.isBlank()
        || address.indexOf(':') < 1
        || address.indexOf('/') >= 0
        || portOf(address) < 0) {
      throw new IllegalArgumentException("scrape address: '" + address + "' (expected host:port)");
    }
  }

  /** A target serving metrics where its engine does by default. */
  public ScrapeTarget(String address, Engine engine) {
    this(address, engine, MetricsLocation.DEFAULT);
  }

  /**
   * The metrics URL, {@code http} or {@code https}: the pool's path, else {@code globalPath} (a
   * {@code scrape.path} set for every pool), else the engine's; the pool's port, else the engine's,
   * else the address's own.
   */
  String metricsUrl(String scheme, String globalPath) {
    int port = metrics.port() != 0 ? metrics.port() : engine.defaultMetricsPort();
    String hostPort =
        port == 0 ? address : address.substring(0, address.lastIndexOf(':') + 1) + port;
    return scheme + "://" + hostPort + metricsPath(globalPath);
  }

  /** The metrics path: the pool's, else {@code globalPath}, else the engine's. */
  String metricsPath(String globalPath) {
    return metrics.path() != null
        ? metrics.path()
        : globalPath != null ? globalPath : engine.defaultMetricsPath();
  }

  /** The metrics port: the pool's, else the engine's, else the address's own. */
  int metricsPort() {
    int port = metrics.port() != 0 ? metrics.port() : engine.defaultMetricsPort();
    return port != 0 ? port : port();
  }

  /** The address's host, without the brackets of an IPv6 literal. */
  String host() {
    String host = address.substring(0, address.lastIndexOf(':'));
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** The address's port. */
  int port() {
    return portOf(address);
  }

  /** The port after the last colon, 1..65535, or -1. */
  private static int portOf(String address) {
    String digits = address.substring(address.lastIndexOf(':') + 1);
    if (digits.isEmpty() || digits.length() > 5 || !Chars.isInteger(digits, 0, digits.length())) {
      return -1;
    }
    int port = Integer.parseInt(digits);
    return port >= 1 && port <= 65535 ? port : -1;
  }
}
