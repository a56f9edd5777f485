package dev.pointsman.picker.scrape;

/**
 * Where a pool's endpoints serve their Prometheus metrics, when not where their engine serves them
 * by default ({@link Engine#defaultMetricsPath()}, {@link Engine#defaultMetricsPort()}).
 *
 * @param path the metrics path, starting with {@code /}; null for the default
 * @param port the metrics port (1–65535); 0 for the default
 */
public record MetricsLocation(String path, int port) {

  /** The engine's defaults. */
  public static final MetricsLocation DEFAULT = new MetricsLocation(null, 0);

  public MetricsLocation {
    if (path != null) {
      ScraperConfig.checkPath("metricsPath", path, "/metrics");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          "metricsPort: " + port + " (expected 1..65535, or 0 for the engine's default)");
    }
  }

  /** {@code path /x, port 8002}, with {@code default} for what is not set. */
  @Override
  public String toString() {
    return "path " + (path == null ? "default" : path) + ", port " + (port == 0 ? "default" : port);
  }

  /** A location from optional settings (null = the default). */
  public static MetricsLocation of(String path, Integer port) {
    return new MetricsLocation(path, port == null ? 0 : port);
  }
}
