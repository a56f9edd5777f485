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
    if (address.isBlank() || address.indexOf(':') < 1 || address.indexOf('/') >= 0) {
      throw new IllegalArgumentException("scrape address: '" + address + "' (expected host:port)");
    }
  }

  /** A target serving metrics where its engine does by default. */
  public ScrapeTarget(String address, Engine engine) {
    this(address, engine, MetricsLocation.DEFAULT);
  }

  /**
   * The metrics URL: the pool's path, else {@code globalPath} (a {@code scrape.path} set for every
   * pool), else the engine's; the pool's port, else the engine's, else the address's own.
   */
  String metricsUrl(String globalPath) {
    String path =
        metrics.path() != null
            ? metrics.path()
            : globalPath != null ? globalPath : engine.defaultMetricsPath();
    int port = metrics.port() != 0 ? metrics.port() : engine.defaultMetricsPort();
    String hostPort =
        port == 0 ? address : address.substring(0, address.lastIndexOf(':') + 1) + port;
    return "http://" + hostPort + path;
  }
}
